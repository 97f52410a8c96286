// The requests are inline functions in the header; SwiftPM needs one source file for a C target.
#include "CallgrindControl.h"
