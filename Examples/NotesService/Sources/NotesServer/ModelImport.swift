// The same server source is compiled twice, once against each build's model. Only the model
// differs between the builds, as it would between two releases of one service.
#if NOTES_NEXT
    @_exported import NotesModel
#else
    @_exported import NotesModelPrevious
#endif
