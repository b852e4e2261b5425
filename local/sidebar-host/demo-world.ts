/** The default world: see demoWorld in world.ts. */
import {demoWorld, DemoWorldOptions, World} from './world';

export function setup(options: DemoWorldOptions): World {
  return demoWorld(options);
}
