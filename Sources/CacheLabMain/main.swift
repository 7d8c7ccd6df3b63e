import CacheLabCLI

/// Runs the command line through the asynchronous `main()`: a bare call at the top level picks the
/// synchronous one, whose `run()` of an async command only prints the command's help.
func start() async {
    await CacheLabCommand.main()
}

await start()
