import CacheLab
import ClientModel

/// The recipes a fixture server serves, shaped like the real API: each recipe has a small and a
/// large photo in a folder of its own (the folder is not the recipe's uuid), and some lack their
/// optional links.
///
/// Photo URLs are kept as folder and file only: the server writes its own base URL in front of them.
public struct FixtureCatalog: Sendable {
    /// One photo the server can serve, at `/photos/<folder>/<file>`.
    public struct Photo: Sendable, Hashable {
        public var folder: String
        public var file: String
        /// Bytes of its body.
        public var size: Int
        /// Whether it is a recipe's large photo (else its small one).
        public var isLarge: Bool

        public init(folder: String, file: String, size: Int, isLarge: Bool) {
            self.folder = folder
            self.file = file
            self.size = size
            self.isLarge = isLarge
        }

        /// Its path on the server, `/photos/<folder>/<file>`.
        public var path: String { "/photos/\(folder)/\(file)" }

        /// Its pixels: the API's, 150×150 for a small photo and 700×700 for a large one.
        public var pixels: PixelSize { isLarge ? CatalogTimeline.largePixels : CatalogTimeline.smallPixels }
    }

    /// One recipe as the API lists it.
    public struct Recipe: Sendable, Equatable {
        public var cuisine: String
        public var name: String
        public var uuid: String
        public var sourceURL: String?
        public var youtubeURL: String?
        public var smallPhoto: Photo
        public var largePhoto: Photo

        public init(
            cuisine: String, name: String, uuid: String, sourceURL: String?, youtubeURL: String?, smallPhoto: Photo,
            largePhoto: Photo
        ) {
            self.cuisine = cuisine
            self.name = name
            self.uuid = uuid
            self.sourceURL = sourceURL
            self.youtubeURL = youtubeURL
            self.smallPhoto = smallPhoto
            self.largePhoto = largePhoto
        }
    }

    /// The list `/recipes.json` serves, top row first.
    public private(set) var recipes: [Recipe]
    /// Every photo served, keyed by `folder/file`: the listed recipes' photos, and for a catalog
    /// made from a timeline also the photos of other days.
    private var photos: [String: Photo]

    /// A catalog of `recipes`, serving their photos and `extraPhotos`.
    public init(recipes: [Recipe], extraPhotos: [Photo] = []) {
        self.recipes = recipes
        self.photos = [:]
        for photo in recipes.flatMap({ [$0.smallPhoto, $0.largePhoto] }) + extraPhotos {
            photos["\(photo.folder)/\(photo.file)"] = photo
        }
    }

    /// The photo served at `/photos/<folder>/<file>`, or nil when there is none.
    public func photo(folder: String, file: String) -> Photo? {
        photos["\(folder)/\(file)"]
    }

    /// The photo served at `/photos/<rest>`, where `rest` is `<folder>/<file>`, or nil.
    func photo(atPath rest: String) -> Photo? {
        guard rest.utf8.count(where: { $0 == UInt8(ascii: "/") }) == 1 else { return nil }
        return photos[rest]
    }

    /// Every photo served, in no particular order.
    public var allPhotos: Dictionary<String, Photo>.Values { photos.values }
}
