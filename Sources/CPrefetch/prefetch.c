// CPrefetch is a header of static inline functions; a C target needs one source file.
#include "CPrefetch.h"
