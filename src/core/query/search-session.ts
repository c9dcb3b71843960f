// What the search worker holds: the frame names of the open recording (the string table and each
// frame's name index), matched against a pattern on request, one flag per frame. A pathological
// pattern may run forever; the page terminates the worker after a timeout.

import { matchNames } from '../model/match-names';
import { unpackStrings } from '../util/wire';

export class SearchSession {
  private strings: readonly string[] = [];
  private name: Int32Array = new Int32Array(0);

  /** The names of a new recording: the string table joined with NUL, and each frame's name index. */
  setNames(joined: string, name: Int32Array): void {
    this.strings = unpackStrings(joined);
    this.name = name;
  }

  /** 1 for each frame whose name matches; throws on an invalid pattern. */
  match(pattern: string, flags: string): Uint8Array {
    return matchNames(this.strings, this.name, new RegExp(pattern, flags));
  }
}
