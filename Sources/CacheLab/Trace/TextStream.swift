/// Reads libCacheSim's plain text: one unsigned 64-bit id per line, size 1, time 0.
final class TextStream: RequestStream {
    private let lines: LineReader
    private var done = false
    private var produced = 0

    var name: String { lines.file }
    var progress: (done: Int, total: Int?) { (lines.consumed, lines.total) }

    init(_ lines: LineReader) {
        self.lines = lines
    }

    func next(into chunk: inout RequestChunk) throws(TraceError) -> Bool {
        try chunk.fill(from: produced) { writer throws(TraceError) in
            while !writer.isFull && !done {
                guard let line = try lines.next(requestsSoFar: produced + writer.count) else {
                    done = true
                    break
                }
                let base = lines.base
                let field = TraceReader.trimmed(line, in: base)
                guard let id = TraceReader.unsignedInteger(field, in: base) else {
                    if field.isEmpty {
                        guard try lines.restIsBlank() else {
                            throw .malformedLine(file: lines.file, line: lines.number, reason: "the line is empty")
                        }
                        done = true
                        break
                    }
                    throw .malformedLine(
                        file: lines.file, line: lines.number,
                        reason:
                            "id \(TraceReader.quoted(field, in: base)) \(TraceReader.unsignedIntegerProblem(field, in: base))"
                    )
                }
                writer.append(time: 0, key: id, size: 1)
            }
        }
        produced += chunk.count
        if done && produced == 0 {
            throw .empty(file: lines.file)
        }
        return chunk.count > 0
    }
}
