import { ApiError, Code } from './envelope.js';

/** How deep a JSON body may nest and how many object keys it may hold in all (docs/security.md, "Body limits"). */
export const JSON_MAX_DEPTH = 64;
export const JSON_MAX_KEYS = 10_000;

/**
 * Checks a JSON body's shape on its text, before it is parsed: nesting depth and the count of object keys. A loop over
 * the characters, no recursion, so a body of 5,000 levels costs one pass and is refused with a clear 400 instead of
 * overflowing the stack in whatever walks the parsed object next (validation, the duplicate-submit key, a handler).
 * Brackets and colons inside strings do not count. Whether the text is valid JSON is the parser's question.
 */
export function checkJsonShape(text: string, maxDepth = JSON_MAX_DEPTH, maxKeys = JSON_MAX_KEYS): ApiError | null {
  let depth = 0;
  let keys = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 0x5c)
        i++; // backslash: the next character is escaped
      else if (c === 0x22) inString = false;
      continue;
    }
    if (c === 0x22) inString = true;
    else if (c === 0x7b || c === 0x5b) {
      // { [
      if (++depth > maxDepth) return new ApiError(Code.BAD_REQUEST, `请求数据层级过深（最多 ${maxDepth} 层），请检查后重试`);
    } else if (c === 0x7d || c === 0x5d) depth--;
    else if (c === 0x3a && ++keys > maxKeys) {
      // : after each key
      return new ApiError(Code.BAD_REQUEST, `请求数据字段过多（最多 ${maxKeys} 个），请检查后重试`);
    }
  }
  return null;
}
