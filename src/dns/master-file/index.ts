// RFC 1035 §5 master files ("zone files"): reading a zone in, writing one out.
export { decodeMasterFile } from "./decode";
export { MAX_REPORTED_ERRORS, parseMasterFile } from "./parse";
export { recordLineBytes, renderMasterFile, renderMasterFilePieces } from "./render";
export type {
  MasterFileError,
  MasterFileRecord,
  MasterFileResult,
  ParsedMasterFile,
  SoaFields,
  ZoneToRender,
} from "./types";
