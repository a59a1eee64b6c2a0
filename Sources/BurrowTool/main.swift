import Foundation

// `burrow`: the command-line tool for realm files.
exit(BurrowTool.run(Array(CommandLine.arguments.dropFirst())))
