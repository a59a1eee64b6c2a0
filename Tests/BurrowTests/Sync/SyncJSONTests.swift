import Foundation
import Testing

/// The JSON that sync reads from the server: every value, escape and malformation, since
/// nothing a server sends is trusted.
@Suite struct SyncJSONTests {
    private func parsed(_ text: String, maximumDepth: Int = 64) throws -> (text: String, ascii: String, string: String?) {
        try Internals.parsedSyncJSON(text, maximumDepth: maximumDepth)
    }

    /// The reason the parser gives for `text`, or `nil` when it reads.
    private func failure(_ text: String, maximumDepth: Int = 64) -> String? {
        do {
            _ = try parsed(text, maximumDepth: maximumDepth)
            return nil
        } catch {
            return "\(error)"
        }
    }

    @Test func valuesReadAndWriteBackAsTheyWere() throws {
        let text = #"{"a":[1,-2.5e+3,0.125,12345678901234567890123456789,true,false,null,"x"],"b":{},"c":[],"":""}"#
        #expect(try parsed(text).text == text)
        #expect(try parsed(" \n\t{ \"a\" : [ 1 , 2 ] ,\r\"b\":null } \r\n").text == #"{"a":[1,2],"b":null}"#)
    }

    /// Large texts an upload sends are written member by member, without a tree: the same text.
    @Test func textWrittenByPartsIsTheTreesText() throws {
        for text in [#"{"a":[1,-2.5e+3,{"b":[],"c":{}},[[],[null]],true,false,null,"x\"\u0001é🦫"],"":"","d":{"e":{"f":[1]}}}"#,
                     "[]", "{}", "[[],{},[{}]]", #""solo""#, "7", "true", "null", #"[{"k":[{"k":[]}]},{"k":1}]"#] {
            let written = try Internals.syncJSONWrittenByParts(text)
            #expect(written.streamed == written.tree, "\(text)")
        }
    }

    /// An operation as the outbox holds it and an upload writes it to the change log.
    @Test func anOperationWrittenByPartsIsItsJSON() throws {
        let clock = "01a24fc920c60001-36690b6208944915bef0f5a06c4b5a64"
        for text in [
            #"{"class":"Task","pk":7,"kind":"create","clock":"\#(clock)","fields":{"id":{"v":7,"c":"\#(clock)"},"name":{"v":"café \"🦫\"","c":"\#(clock)"}}}"#,
            #"{"class":"Täsk","pk":"é","kind":"update","clock":null,"fields":{"tags":{"v":null,"c":"\#(clock)","e":{"kind":"map","put":[["k1",1],["k2","x"]],"remove":["k0"]}}}}"#,
            #"{"class":"Task","pk":{"$oid":"1"},"kind":"update","clock":null,"fields":{"list":{"v":[1,2],"c":"\#(clock)","k":["a","b"]}}}"#,
            #"{"class":"Task","pk":-1,"kind":"delete","clock":"\#(clock)","fields":{}}"#,
        ] {
            let written = try Internals.syncOperationTexts(text)
            #expect(written.streamed == written.tree, "\(text)")
        }
    }

    @Test func stringsWithoutEscapesKeepEveryCharacter() throws {
        #expect(try parsed("\"café 日本 🦫\"").string == "café 日本 🦫")
        #expect(try parsed("\"\"").string == "")
        let long = String(repeating: "burrow ", count: 20_000)
        #expect(try parsed("\"\(long)\"").string == long)
    }

    @Test func everyEscapeReads() throws {
        let value = try parsed(#""a\"b\\c\/d\b\f\n\r\t\u00e9\u00E9\ud83e\udeab e""#)
        #expect(value.string == "a\"b\\c/d\u{8}\u{C}\n\r\té\u{E9}\u{1FAAB} e")
        // Written back, characters JSON requires escaped are; in ASCII, every other one too.
        #expect(value.text == "\"a\\\"b\\\\c/d\\u0008\\u000c\\n\\r\\t\u{E9}\u{E9}\u{1FAAB} e\"")
        #expect(value.ascii == #""a\"b\\c/d\u0008\u000c\n\r\t\u00e9\u00e9\ud83e\udeab e""#)
        // An escape at the start, in the middle and at the end of a string with plain text.
        #expect(try parsed(#""\nab""#).string == "\nab")
        #expect(try parsed(#""ab\ncd""#).string == "ab\ncd")
        #expect(try parsed(#""日本\u0041""#).string == "日本A")
    }

    /// Strings of every kind of character, encoded by Foundation, read, written back plainly
    /// and in ASCII, and read again: the same string each time, byte for byte.
    @Test func stringsSurviveWritingAndReadingAgain() throws {
        var random = SplitMix64(seed: 0x15_0A)
        let pool: [Unicode.Scalar] = (0..<0x80).compactMap(Unicode.Scalar.init) + ["é", "\u{301}", "ß", "日", "本", "€", "\u{FFFF}", "🦫", "\u{1FAAB}", "\u{10FFFF}"]
        for _ in 0..<500 {
            var string = String.UnicodeScalarView()
            for _ in 0..<Int.random(in: 0...24, using: &random) { string.append(pool.randomElement(using: &random)!) }
            let original = String(string)
            let encoded = String(decoding: try JSONEncoder().encode(original), as: UTF8.self)
            let value = try parsed(encoded)
            #expect(value.string.map { Array($0.utf8) } == Array(original.utf8))
            #expect(value.ascii.utf8.allSatisfy { $0 >= 0x20 && $0 < 0x7F }, "\(value.ascii)")
            for text in [value.text, value.ascii] {
                #expect(try parsed(text).string.map { Array($0.utf8) } == Array(original.utf8), "\(text)")
            }
        }
        // Each control character has an escape; DEL is escaped in ASCII only.
        let controls = String(String.UnicodeScalarView((0..<0x20).compactMap(Unicode.Scalar.init))) + "\u{7F}"
        let written = try parsed(String(decoding: try JSONEncoder().encode(controls), as: UTF8.self))
        #expect(written.text == #""\u0000\u0001\u0002\u0003\u0004\u0005\u0006\u0007\u0008\t\n\u000b\u000c\r\u000e\u000f\u0010\u0011\u0012\u0013\u0014\u0015\u0016\u0017\u0018\u0019\u001a\u001b\u001c\u001d\u001e\u001f\#u{7F}""#)
        #expect(written.ascii.hasSuffix(#"\u001f\u007f""#))
    }

    @Test func membersAreDistinctByTheirBytes() throws {
        #expect(failure(#"{"a":1,"a":2}"#)?.contains("the member \"a\" appears twice") == true)
        // Composed and decomposed é are one Swift string but two member names.
        #expect(try parsed("{\"caf\u{E9}\":1,\"cafe\u{301}\":2}").ascii == #"{"caf\u00e9":1,"cafe\u0301":2}"#)
        // Past the members compared one by one, a repeat is still found.
        let many = (0..<40).map { "\"m\($0)\":\($0)" }
        #expect(try parsed("{\(many.joined(separator: ","))}").text.hasPrefix(#"{"m0":0,"m1":1,"#))
        #expect(failure("{\((many + [#""m3":0"#]).joined(separator: ","))}")?.contains("\"m3\" appears twice") == true)
        #expect(failure("{\((many.prefix(10) + [#""m9":0"#]).joined(separator: ","))}")?.contains("\"m9\" appears twice") == true)
    }

    @Test(arguments: [
        ("", "unexpected end"),
        ("\"abc", "unterminated string"),
        ("\"abc\\", "unterminated string"),
        ("\"a\u{1}b\"", "a control character in a string"),
        ("\"a\\nb\u{1F}\"", "a control character in a string"),
        (#""\x""#, "an unknown escape"),
        (#""\u12""#, "expected four hex digits"),
        (#""\u+abc""#, "expected four hex digits"),
        (#""\u00g0""#, "expected four hex digits"),
        (#""\ud800x""#, #"expected \u"#),
        (#""\ud800\u0041""#, "an unpaired surrogate"),
        (#""\udc00""#, "an unpaired surrogate"),
        ("nul", "expected null"),
        ("tru", "expected true"),
        ("falsy", "expected false"),
        ("[1,]", "expected a value"),
        ("[1 2]", "expected , or ]"),
        ("[1", "unterminated array"),
        (#"{"a" 1}"#, "expected :"),
        (#"{"a":1,}"#, "expected a member name"),
        (#"{"a":1"#, "unterminated object"),
        ("1 2", "text after the value"),
        ("-", "expected a value"),
        ("1.", "expected digits after the decimal point"),
        ("1e", "expected digits in the exponent"),
        ("+1", "expected a value"),
    ])
    func malformedTextIsAnErrorNamingWhy(text: String, reason: String) {
        #expect(failure(text)?.contains(reason) == true, "\(text): \(failure(text) ?? "read")")
    }

    @Test func depthIsBounded() throws {
        // The outermost value is at depth 0.
        let deep = String(repeating: "[", count: 66) + String(repeating: "]", count: 66)
        #expect(failure(deep)?.contains("nested deeper than 64") == true)
        let allowed = String(repeating: "[", count: 64) + "1" + String(repeating: "]", count: 64)
        #expect(try parsed(allowed).text == allowed)
        #expect(failure(#"{"a":{"b":{"c":1}}}"#, maximumDepth: 2)?.contains("nested deeper than 2") == true)
    }

    @Test func anErrorNamesTheByteWhereItIs() {
        #expect(failure(#"{"a":[1,2,x]}"#) == "malformed JSON at byte 10: expected a value")
    }
}
