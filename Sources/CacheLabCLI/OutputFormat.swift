import ArgumentParser

enum OutputFormat: String, CaseIterable, ExpressibleByArgument {
    case table
    case csv
}
