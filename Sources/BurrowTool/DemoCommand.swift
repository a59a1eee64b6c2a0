import Burrow
import Foundation

/// `burrow demo FILE [--people N]`: writes a sample file to try the other commands on. The same
/// arguments always give the same objects.
enum DemoCommand {
    static let usage = """
        usage: burrow demo FILE [--people N] [--key-file PATH]

        Writes a new sample file FILE: N people (default 2000) with names, dates, decimals,
        UUIDs, an embedded address, a best friend, a list of dogs, a set of nicknames and a map
        of scores; 1.5 dogs a person with an ObjectId key, tags, a mixed value and backlinks to
        their owners; and a visit (a class without a primary key) for every other dog. The same
        N always gives the same objects. Encrypted with the key of --key-file or
        BURROW_ENCRYPTION_KEY when one is given.

        example:
          burrow demo pets.realm && burrow query pets.realm Dog 'age < 2' --sort name --limit 5

        Exit status: 0 written, 1 failed, 2 misused or FILE exists.
        """

    static let objectTypes: [ObjectBase.Type] = [Person.self, Dog.self, Address.self, Visit.self]

    static func run(_ arguments: [String]) -> Int32 {
        BurrowTool.running("demo") { () throws(ToolFailure) in
            let options = try CommandLineOptions(arguments, command: "demo", valued: ["people", "key-file"])
            guard options.positional.count == 1 else { throw .usage("demo takes one FILE", command: "demo") }
            let people: Int
            do throws(CommandLineOptions.UsageError) { people = try options.integer("people", default: 2000, in: 1...10_000_000) } catch { throw .usage(error.message, command: "demo") }
            let path = options.positional[0]
            guard !FileManager.default.fileExists(atPath: path) else { throw .input("\(path) exists; demo writes a new file") }
            let key = try ToolEncryptionKey.resolve(keyFile: options.string("key-file"))
            let url = URL(fileURLWithPath: path)
            do {
                let realm = try Realm(configuration: Realm.Configuration(fileURL: url, encryptionKey: key, objectTypes: objectTypes))
                var data = DemoData(people: people)
                let counts = try data.write(into: realm)
                print("wrote \(path): \(counts.people) people, \(counts.dogs) dogs, \(counts.visits) visits")
                return 0
            } catch {
                try? FileManager.default.removeItem(at: url)
                try? FileManager.default.removeItem(atPath: path + "-lock")
                throw .failed(ToolFile.describe(error, path: path))
            }
        }
    }
}
