/// What a device gives an image library to size its caches by: memory, the app's memory class
/// (Android), the screen, and free disk. The presets (`ClientPreset`) read these, as the
/// libraries do at run time.
///
/// Screens are from Apple's and the makers' spec pages; iPhone RAM from teardowns (Apple does not
/// publish it); Android memory classes are AOSP's defaults for `dalvik.vm.heapgrowthlimit` and
/// `heapsize` (phone-xhdpi-6144: 256m / 512m; Android Go: 128m / 256m, low-RAM). Makers change
/// them: measure your own devices.
public struct DeviceProfile: Sendable, Equatable {
    public var name: String
    /// Physical memory in bytes (iOS libraries size by it).
    public var ram: Int
    /// The screen in pixels.
    public var screenWidth: Int
    public var screenHeight: Int
    /// `ActivityManager.getMemoryClass()` in bytes; nil on iOS (then the Android presets use
    /// 256 MiB, Coil's own fallback).
    public var memoryClass: Int?
    /// `ActivityManager.isLowRamDevice()`.
    public var isLowRam: Bool
    /// Free space on the cache's volume, in bytes (Coil sizes its disk by it).
    public var freeDisk: Int

    public init(
        name: String, ram: Int, screenWidth: Int, screenHeight: Int, memoryClass: Int? = nil, isLowRam: Bool = false,
        freeDisk: Int = 32 << 30
    ) {
        self.name = name
        self.ram = ram
        self.screenWidth = screenWidth
        self.screenHeight = screenHeight
        self.memoryClass = memoryClass
        self.isLowRam = isLowRam
        self.freeDisk = freeDisk
    }

    /// Bytes of one full screen of decoded pixels (ARGB_8888).
    public var screenBytes: Int { screenWidth * screenHeight * 4 }

    /// The memory class the Android presets use: the device's, else 256 MiB.
    public var effectiveMemoryClass: Int { memoryClass ?? 256 << 20 }

    /// iPhone SE (2nd generation): 3 GB, 750×1334.
    public static let iphoneSE2 = DeviceProfile(
        name: "iphone-se-2", ram: 3 << 30, screenWidth: 750, screenHeight: 1_334)
    /// iPhone 15: 6 GB, 1179×2556.
    public static let iphone15 = DeviceProfile(name: "iphone-15", ram: 6 << 30, screenWidth: 1_179, screenHeight: 2_556)
    /// An Android Go phone: 2 GB, low-RAM, memory class 128 MiB, 720×1600, 4 GB free.
    public static let androidGo = DeviceProfile(
        name: "android-go-2gb", ram: 2 << 30, screenWidth: 720, screenHeight: 1_600, memoryClass: 128 << 20,
        isLowRam: true, freeDisk: 4 << 30)
    /// A mid-range Android phone: 6 GB, memory class 256 MiB, 1080×2400.
    public static let androidMid = DeviceProfile(
        name: "android-mid-6gb", ram: 6 << 30, screenWidth: 1_080, screenHeight: 2_400, memoryClass: 256 << 20)

    public static let all: [DeviceProfile] = [.iphoneSE2, .iphone15, .androidGo, .androidMid]

    /// A device known only by its memory (`--device-memory`): an iPhone 15's screen.
    public static func generic(ram: Int) -> DeviceProfile {
        DeviceProfile(name: "generic", ram: ram, screenWidth: 1_179, screenHeight: 2_556)
    }

    public static func named(_ name: String) -> DeviceProfile? {
        all.first { $0.name == name }
    }
}
