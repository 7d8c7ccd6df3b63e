import ArgumentParser
import CacheEngine
import CacheLab
import ClientModel

extension PolicyKind: ExpressibleByArgument {
    // Twenty-seven names would fill every option's help; `cachelab policies` lists them.
    public static var allValueStrings: [String] { [] }
}
extension SizeMode: ExpressibleByArgument {}
extension TTLMode: ExpressibleByArgument {}
extension NetworkProfile: ExpressibleByArgument {}
extension TierKind: ExpressibleByArgument {}
extension RunMode: ExpressibleByArgument {}
extension TraceFormat: ExpressibleByArgument {}
extension MemoryCost: ExpressibleByArgument {}
