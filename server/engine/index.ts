/**
 * The schema engine (docs/schemas.md): schemas/*.json → tables, validated endpoints, exports / imports, operation
 * log and the OpenAPI document.
 */

export type { EntitySchema, PropertySchema } from '../../common/engine/types.js';
export { checkSchemas, DEFAULT_SCHEMAS_DIR, loadSchemas, META_SCHEMA, SchemaError, type SchemaProblem } from './metaSchema.js';
export { buildEntity, type Entity, type Field, snakeCase } from './model.js';
export { type EndpointDescriptor, type EndpointOp, endpointsOf, moduleEndpointsOf, openApiDocument, sameRoute } from './openapi.js';
export { prepareEngine, type SchemaEngine, schemaEngineRoutes } from './routes.js';
export { type SyncReport, syncTables } from './sync.js';
export { insertSyntheticRows, loadSources, synthRecord, synthValue } from './synth.js';
export type { LoadedSchema } from './types.js';
