import { resourceDefs } from '../../resources.config';
import { createDataProvider } from './dataProvider';

/** The data provider of the console: every resource of resources.config.ts. */
export const dataProvider = createDataProvider((name) => resourceDefs[name]?.schema);
