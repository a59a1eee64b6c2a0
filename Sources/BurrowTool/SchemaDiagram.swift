import Burrow

/// The schema as SVG: a box per class listing its properties, laid out in rows, and a line
/// from each link property to the class it links to.
struct SchemaDiagram {
    let classes: [ObjectSchema]

    private static let boxWidth = 270, lineHeight = 16, gap = 60, columns = 4

    var svg: String {
        guard !classes.isEmpty else { return "<p>No classes.</p>\n" }
        // Boxes in rows of `columns`, each row as tall as its tallest box.
        var frames: [String: (x: Int, y: Int, height: Int)] = [:]
        var y = 10
        for row in stride(from: 0, to: classes.count, by: Self.columns) {
            let members = classes[row..<min(row + Self.columns, classes.count)]
            let height = members.map { Self.height(of: $0) }.max() ?? 0
            for (column, schema) in members.enumerated() {
                frames[schema.className] = (10 + column * (Self.boxWidth + Self.gap), y, Self.height(of: schema))
            }
            y += height + Self.gap
        }
        let width = 10 + min(classes.count, Self.columns) * (Self.boxWidth + Self.gap)
        var svg = "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"\(width)\" height=\"\(y)\" role=\"img\" aria-label=\"Schema\">\n"
        svg += "<defs><marker id=\"arrow\" viewBox=\"0 0 10 10\" refX=\"10\" refY=\"5\" markerWidth=\"7\" markerHeight=\"7\" orient=\"auto-start-reverse\"><path d=\"M 0 0 L 10 5 L 0 10 z\" fill=\"#8a6\"/></marker></defs>\n"
        // Links under the boxes.
        for schema in classes {
            guard let from = frames[schema.className] else { continue }
            for (index, property) in schema.properties.enumerated() where property.type == .object {
                guard let target = property.objectClassName, let to = frames[target] else { continue }
                let startX = from.x + Self.boxWidth, startY = from.y + 30 + index * Self.lineHeight
                let endX = to.x, endY = to.y + 14
                let bend = target == schema.className ? 40 : 0
                svg += "<path d=\"M \(startX) \(startY) C \(startX + 40 + bend) \(startY), \(endX - 40 - bend) \(endY), \(endX) \(endY)\" "
                svg += "fill=\"none\" stroke=\"#8a6\" stroke-width=\"1.5\" marker-end=\"url(#arrow)\"/>\n"
            }
        }
        for schema in classes {
            guard let frame = frames[schema.className] else { continue }
            let fill = schema.isEmbedded ? "#f5f0ff" : "#eef4ff"
            svg += "<g><rect x=\"\(frame.x)\" y=\"\(frame.y)\" width=\"\(Self.boxWidth)\" height=\"\(frame.height)\" rx=\"6\" fill=\"\(fill)\" stroke=\"#7b8bb2\"/>\n"
            let title = schema.className + (schema.isEmbedded ? " (embedded)" : "")
            svg += "<text class=\"title\" x=\"\(frame.x + 10)\" y=\"\(frame.y + 18)\">\(ReportPage.escape(title))</text>\n"
            for (index, property) in schema.properties.enumerated() {
                let key = property.isPrimary ? " (primary key)" : property.isIndexed ? " (indexed)" : ""
                let text = "\(property.name): \(SchemaCommand.typeText(property))\(key)"
                svg += "<text x=\"\(frame.x + 10)\" y=\"\(frame.y + 34 + index * Self.lineHeight)\">\(ReportPage.escape(text))</text>\n"
            }
            svg += "</g>\n"
        }
        return svg + "</svg>\n"
    }

    private static func height(of schema: ObjectSchema) -> Int {
        28 + schema.properties.count * lineHeight
    }
}
