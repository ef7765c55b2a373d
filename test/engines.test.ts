// The shared suite, run once per engine.
import { ENGINES } from "./helpers.js";
import { engineSuite } from "./engine-suite.js";

for (const engine of ENGINES) engineSuite(engine);
