import Burrow
import Foundation

/// `burrow query FILE CLASS ['PREDICATE'] [options]`: the objects of CLASS that match the
/// predicate (the query language, with its `SORT`, `DISTINCT` and `LIMIT` clauses), read-only.
enum QueryCommand {
    static let usage = """
        usage: burrow query FILE CLASS ['PREDICATE'] [--sort KEYS] [--limit N] [--offset N]
                            [--properties A,B] [--format table|json|jsonl|csv] [--count]
                            [--key-file PATH]

        Prints the objects of CLASS in FILE that match PREDICATE (all of them without one), in
        the query language of filter(_:), which may end with SORT(...), DISTINCT(...) and
        LIMIT(n). Links print as the target's primary key, collections and embedded objects
        inline, Data as base64, dates in ISO 8601 (UTC).

          --sort KEYS         sort by key paths, comma-separated; a leading - sorts descending
          --limit N           print at most N objects
          --offset N          skip the first N objects
          --properties A,B    print only these properties, in this order
          --format F          table (the default on a terminal), jsonl (the default
                              otherwise: a JSON object a line), json (one array) or csv
          --count             print only the number of matching objects
          --key-file PATH     the encryption key (64 bytes or 128 hex digits); or set
                              BURROW_ENCRYPTION_KEY

        examples:
          burrow query app.realm Dog 'age < 2 AND name BEGINSWITH[c] "r"' --sort -age
          burrow query app.realm Order 'status == "open"' --count
          burrow query app.realm Person --format csv --properties id,name > people.csv

        Exit status: 0 printed, 2 misused or bad input (a missing or foreign file, a wrong or
        missing key, an unknown class or property, a malformed query: the query is printed
        with a caret under the place).
        """

    static func run(_ arguments: [String]) -> Int32 {
        BurrowTool.running("query") { () throws(ToolFailure) in
            let options = try CommandLineOptions(arguments, command: "query", valued: ["sort", "limit", "offset", "properties", "format", "key-file"],
                                                 flags: ["count"])
            guard (2...3).contains(options.positional.count) else {
                throw .usage("query takes FILE, CLASS and an optional PREDICATE", command: "query")
            }
            let format: ObjectPrinter.Format
            let limit: Int?, offset: Int
            do throws(CommandLineOptions.UsageError) {
                let name = try options.choice("format", of: ObjectPrinter.Format.allCases.map(\.rawValue),
                                              default: isatty(STDOUT_FILENO) == 1 ? "table" : "jsonl")
                format = ObjectPrinter.Format(rawValue: name)!
                limit = options.string("limit") == nil ? nil : try options.integer("limit", default: 0, in: 0...Int.max)
                offset = try options.integer("offset", default: 0, in: 0...Int.max)
            } catch {
                throw .usage(error.message, command: "query")
            }
            let file = try ToolFile(options.positional[0], options: options)
            let realm = try file.openReadOnly()
            let schema = try file.objectSchema(options.positional[1], in: realm)
            var results = realm.dynamicObjects(schema.className)
            if options.positional.count == 3 {
                results = results.filter(try QueryText.predicate(options.positional[2], for: results))
            }
            if let keys = options.string("sort") {
                results = results.sorted(by: try QueryText.sortDescriptors(keys, for: results))
            }
            if limit != nil || offset > 0 { results = results.limit(limit ?? Int.max, offset: offset) }
            if options.flags.contains("count") {
                print(results.count)
                return 0
            }
            let properties = try QueryText.properties(options.string("properties"), of: schema)
            var printer = ObjectPrinter(format: format, properties: properties)
            printer.begin()
            for object in results { printer.print(object) }
            printer.end()
            var output = printer.output
            try output.finish()
            return 0
        }
    }
}
