/// The `cachelab` executable's entry point (`Sources/CacheLabMain`): parses the command line and
/// runs the command it names, as `CacheLabCommand` declares them.
public enum CacheLabEntry {
    /// Runs `cachelab` with the process's arguments and exits with the command's status.
    public static func main() async {
        await CacheLabCommand.main()
    }
}
