// What the global setup hands to the tests.
import { resolve } from 'node:path';

export interface Login {
  username: string;
  password: string;
}

export interface WmeterContext {
  /** `http://127.0.0.1:<port>` of `wmeter serve`. */
  base: string;
  admin: Login;
  viewer: Login;
  /** The embedded broker, with the gateways' login. */
  mqtt: { port: number; username: string; password: string };
}

/** Screenshots and server logs; git-ignored, kept by CI. */
export const ARTIFACTS = resolve(import.meta.dirname, '../artifacts');

/** The simulated network: small, so that every list fits a couple of pages. */
export const SIM = {
  gateways: 4,
  meters: 24,
  args: ['--gateways', '4', '--meters', '24', '--rate', '4', '--seed', '7'],
  /** Its gateways' serial numbers start so (`SG` and the seed in hex). */
  serialPrefix: 'SG07',
};
