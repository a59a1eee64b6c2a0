import Foundation

// `burrow`: the command-line tool for realm files. Standard output is line-buffered so that
// progress lines appear as they are printed, even into a pipe or a file.
setvbuf(stdout, nil, _IOLBF, 0)
exit(BurrowTool.run(Array(CommandLine.arguments.dropFirst())))
