/**
 * The schema engine, console side: one data provider and generic pages for every schemas/*.json resource
 * (src/resources/ builds the console's registry of them). docs/schemas.md "Console side" describes it.
 */
export { changeField, createDataProvider, listQuery, updateBody, writableBody } from './dataProvider';
export { buildForm } from './form/formSchema';
export { validator } from './form/validator';
export { EntityForm, EntityFormDialog, EntityFormPage } from './pages/EntityForm';
export { EntityList } from './pages/EntityList';
export { EntityShow, EntityShowDialog } from './pages/EntityShow';
export { ResourcePage } from './pages/ResourcePage';
export * from './registry';
export * from './resource';
