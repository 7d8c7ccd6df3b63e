import ArgumentParser
import CacheEngine
import CacheLab
import ClientModel

extension SizeMode: ExpressibleByArgument {}
extension TTLMode: ExpressibleByArgument {}
extension NetworkProfile: ExpressibleByArgument {}
extension TierKind: ExpressibleByArgument {}
extension RunMode: ExpressibleByArgument {}
extension TraceFormat: ExpressibleByArgument {}
extension MemoryCost: ExpressibleByArgument {}
