// The export worker: a comlink facade over core/export/recording-file.ts. The page sends copies of
// the recording's columns and gets the gzipped file back by transfer; started for one export or
// Share and terminated after it, so its copies do not outlive the job.

import * as Comlink from 'comlink';
import { fromRecordingFileWire, recordingFile, type RecordingFileKind, type RecordingFileWire } from '../src/core/export/recording-file';

const api = {
  async file(kind: RecordingFileKind, wire: RecordingFileWire): Promise<Uint8Array> {
    const bytes = await recordingFile(kind, fromRecordingFileWire(wire));
    return Comlink.transfer(bytes, [bytes.buffer as ArrayBuffer]);
  },
};

export type ExportWorkerApi = typeof api;

Comlink.expose(api);
