/**
 * The part of OpenAPI v3 that Kubernetes accepts in a CustomResourceDefinition's structural schema
 * (apiextensions.k8s.io/v1 JSONSchemaProps), which is what lblab's decoders say about themselves. Only
 * the keywords lblab uses are listed, so a typo in a keyword is a type error.
 */
export interface StructuralSchema {
  type?: 'object' | 'array' | 'string' | 'integer' | 'boolean';
  description?: string;
  properties?: Record<string, StructuralSchema>;
  required?: string[];
  additionalProperties?: StructuralSchema;
  items?: StructuralSchema;
  enum?: (string | number)[];
  minimum?: number;
  maximum?: number;
  minLength?: number;
  maxLength?: number;
  minItems?: number;
  maxItems?: number;
  /** Go RE2 and ECMAScript both read it the same way: no lookaround, no backreferences. */
  pattern?: string;
  format?: 'int64' | 'date-time';
  /** Logical junctors: Kubernetes forbids type, description and the x-kubernetes-* keys inside them. */
  oneOf?: StructuralSchema[];
  anyOf?: StructuralSchema[];
  not?: StructuralSchema;
  'x-kubernetes-preserve-unknown-fields'?: true;
  'x-kubernetes-int-or-string'?: true;
  /** `set`: no two items equal (the API server refuses duplicates); items are scalars or atomic maps. */
  'x-kubernetes-list-type'?: 'atomic' | 'set' | 'map';
  /** With list type `map`: the item fields that identify an item; two items may not share them. */
  'x-kubernetes-list-map-keys'?: string[];
  'x-kubernetes-map-type'?: 'atomic' | 'granular';
}
