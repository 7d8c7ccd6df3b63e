extension CodingUserInfoKey {
    /// An absolute `URL` under this key makes `Recipe` decoding resolve relative photo paths
    /// (`photos/abc/small.jpg`, `/photos/abc/small.jpg`) against it; without one they stay
    /// relative. `URLSessionRecipeService` sets it to its environment's base URL.
    public static let recipePhotoBase = CodingUserInfoKey(rawValue: "cachelab.recipePhotoBase")!
}
