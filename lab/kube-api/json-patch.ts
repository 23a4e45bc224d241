import { JsonPatchError } from './errors.ts';
import type { Json } from './objects.ts';
import { canonicalJson, copy, isJsonObject } from './objects.ts';

/**
 * JSON Patch (RFC 6902) over JSON Pointers (RFC 6901), as client-node sends by default for patches.
 * Written here because no JSON Patch library is among the project's dependencies and the brief adds
 * none; the operations are short and fully specified by the RFC.
 */
export interface JsonPatchOperation {
  op: 'add' | 'remove' | 'replace' | 'move' | 'copy' | 'test';
  path: string;
  value?: unknown;
  from?: string;
}

export function applyJsonPatch(document: unknown, operations: unknown): unknown {
  if (!Array.isArray(operations)) throw new JsonPatchError('a JSON patch must be an array of operations');
  let doc = copy(document);
  for (const operation of operations) {
    if (!isJsonObject(operation) || typeof operation.path !== 'string')
      throw new JsonPatchError(`malformed operation ${JSON.stringify(operation)}`);
    const op = operation as unknown as JsonPatchOperation;
    switch (op.op) {
      case 'add':
        doc = add(doc, op.path, requireValue(op));
        break;
      case 'remove':
        doc = remove(doc, op.path);
        break;
      case 'replace':
        doc = add(remove(doc, op.path), op.path, requireValue(op));
        break;
      case 'move': {
        const value = get(doc, requireFrom(op));
        doc = add(remove(doc, requireFrom(op)), op.path, value);
        break;
      }
      case 'copy':
        doc = add(doc, op.path, copy(get(doc, requireFrom(op))));
        break;
      case 'test':
        if (canonicalJson(get(doc, op.path)) !== canonicalJson(requireValue(op)))
          throw new JsonPatchError(`testing value ${op.path} failed`);
        break;
      default:
        throw new JsonPatchError(`unknown operation ${JSON.stringify((op as { op: unknown }).op)}`);
    }
  }
  return doc;
}

function requireValue(op: JsonPatchOperation): unknown {
  if (!('value' in op)) throw new JsonPatchError(`${op.op} operation on ${op.path} has no value`);
  return copy(op.value);
}

function requireFrom(op: JsonPatchOperation): string {
  if (typeof op.from !== 'string') throw new JsonPatchError(`${op.op} operation on ${op.path} has no from`);
  return op.from;
}

/** RFC 6901 §3-4: "" is the whole document; ~1 is '/', ~0 is '~'. */
function tokens(pointer: string): string[] {
  if (pointer === '') return [];
  if (!pointer.startsWith('/')) throw new JsonPatchError(`invalid JSON pointer ${JSON.stringify(pointer)}`);
  return pointer
    .slice(1)
    .split('/')
    .map((t) => t.replaceAll('~1', '/').replaceAll('~0', '~'));
}

function arrayIndex(array: unknown[], token: string, forAdd: boolean): number {
  if (forAdd && token === '-') return array.length;
  if (!/^(0|[1-9][0-9]*)$/.test(token)) throw new JsonPatchError(`invalid array index ${token}`);
  const index = Number(token);
  if (index > array.length || (!forAdd && index === array.length))
    throw new JsonPatchError(`array index ${index} out of bounds`);
  return index;
}

/** The container that holds the pointer's last token, and that token. */
function parentOf(doc: unknown, pointer: string): [container: Json | unknown[], last: string] {
  const path = tokens(pointer);
  const last = path.pop();
  if (last === undefined) throw new JsonPatchError('the operation needs a path below the document root');
  let node = doc;
  for (const t of path) {
    if (Array.isArray(node)) node = node[arrayIndex(node, t, false)];
    else if (isJsonObject(node) && Object.hasOwn(node, t)) node = node[t];
    else throw new JsonPatchError(`path ${pointer} does not exist`);
  }
  if (!Array.isArray(node) && !isJsonObject(node)) throw new JsonPatchError(`path ${pointer} does not exist`);
  return [node, last];
}

function get(doc: unknown, pointer: string): unknown {
  let node = doc;
  for (const t of tokens(pointer)) {
    if (Array.isArray(node)) node = node[arrayIndex(node, t, false)];
    else if (isJsonObject(node) && Object.hasOwn(node, t)) node = node[t];
    else throw new JsonPatchError(`path ${pointer} does not exist`);
  }
  return node;
}

function add(doc: unknown, pointer: string, value: unknown): unknown {
  if (pointer === '') return value;
  const [container, last] = parentOf(doc, pointer);
  if (Array.isArray(container)) container.splice(arrayIndex(container, last, true), 0, value);
  else container[last] = value;
  return doc;
}

function remove(doc: unknown, pointer: string): unknown {
  const [container, last] = parentOf(doc, pointer);
  if (Array.isArray(container)) container.splice(arrayIndex(container, last, false), 1);
  else if (Object.hasOwn(container, last)) delete container[last];
  else throw new JsonPatchError(`path ${pointer} does not exist`);
  return doc;
}
