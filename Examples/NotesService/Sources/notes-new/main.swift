import NotesServer

// The build the deploy rolls out: it knows note version 3 and attachment version 2.
try await NotesService.run(build: "new")
