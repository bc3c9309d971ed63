import type { EntitySchema } from '../../common/engine/types.js';

/** A schema file after loading: the parsed schema and where it came from (the schema shapes are in common/engine/types.ts). */
export interface LoadedSchema {
  file: string;
  schema: EntitySchema;
}
