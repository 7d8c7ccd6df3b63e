/// The SQLite store keeps the last good recipe list beside the images, so it survives relaunches.
extension DiskStore: LastGoodListStore {}
