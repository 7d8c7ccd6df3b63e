/// Sentences several commands' help share, written once so they say the same thing.
enum HelpText {
    /// What Belady's next uses cost, for every command that can run it.
    static let nextUses = """
        Belady (and --vs-opt) needs each request's next use. An oracleGeneral file carries it in \
        its next_access_vtime field, at no cost. For any other trace (or with \
        --compute-next-uses) a backward pass first reads the trace once more and writes 16 bytes \
        a request to unlinked temporary files in $TMPDIR, holding about 40 bytes per distinct \
        object in memory; the replay then streams them beside the trace.
        """

    /// What holds a whole trace in memory, for the commands that have such a path.
    static let liveHoldsTrace = """
        A live replay holds the trace in memory (about 24 bytes a request plus its keys), where \
        the simulator streams it.
        """
}
