/** The test worker program behind a 3 s load (imports evaluate in order). */
import "./_slow_load.ts";
import "./_worker.ts";
