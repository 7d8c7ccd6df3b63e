import CacheLabCLI

await CacheLabEntry.main()
