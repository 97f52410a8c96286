import NotesServerPrevious

// The build that is running before the deploy: its newest note version is 2.
try await NotesService.run(build: "old")
