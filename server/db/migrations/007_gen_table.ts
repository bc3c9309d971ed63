import type { Kysely } from 'kysely';
import type { Dialect } from '../connection.js';
import { epoch, type Migration, notNull, text, withId } from './helpers.js';

/**
 * 代码生成 (server/gen/, docs/schemas.md "代码生成"): an imported database table and its generation settings
 * (RuoYi's gen_table / gen_table_column shape), from which a schema JSON file for the schema engine is generated.
 * Flags are RuoYi's '1' / '0' strings.
 */
export const migration007: Migration = {
  name: '007_gen_table',
  async up(db: Kysely<unknown>, dialect: Dialect) {
    const s = db.schema;

    await withId(s.createTable('gen_table'), 'table_id', dialect)
      .addColumn('table_name', text, (c) => c.notNull().unique())
      .addColumn('table_comment', text, (c) => c.notNull().defaultTo(''))
      .addColumn('entity_name', text, notNull) // the schema's $id and file name
      .addColumn('menu_parent', text) // x-menu.parent (directory path, e.g. system)
      .addColumn('menu_path', text) // x-menu.path
      .addColumn('menu_title', text) // x-menu.title
      .addColumn('menu_icon', text) // x-menu.icon
      .addColumn('permission_prefix', text, notNull) // e.g. demo:item → demo:item:list …
      .addColumn('endpoint_base', text, notNull) // e.g. /dev-api/demo/item
      .addColumn('form_mode', text, (c) => c.notNull().defaultTo('dialog')) // dialog | page
      .addColumn('form_width', 'integer', (c) => c.notNull().defaultTo(1200))
      .addColumn('form_columns', 'integer', (c) => c.notNull().defaultTo(2))
      .addColumn('tree_parent', text) // x-tree.parent property (tree table)
      .addColumn('tree_label', text) // x-tree.label property
      .addColumn('remark', text)
      .addColumn('create_by', text)
      .addColumn('create_time', epoch, notNull)
      .addColumn('update_by', text)
      .addColumn('update_time', epoch)
      .addColumn('version', 'integer', (c) => c.notNull().defaultTo(1))
      .execute();

    await withId(s.createTable('gen_table_column'), 'column_id', dialect)
      .addColumn('table_id', 'integer', (c) => c.notNull().references('gen_table.table_id').onDelete('cascade'))
      .addColumn('column_name', text, notNull)
      .addColumn('column_comment', text, (c) => c.notNull().defaultTo('')) // the property title
      .addColumn('column_type', text, (c) => c.notNull().defaultTo('')) // database type as introspected
      .addColumn('property_name', text, notNull) // camelCase
      .addColumn('property_type', text, notNull) // string | integer | number | boolean
      .addColumn('is_pk', text, (c) => c.notNull().defaultTo('0'))
      .addColumn('is_nullable', text, (c) => c.notNull().defaultTo('1'))
      .addColumn('is_required', text, (c) => c.notNull().defaultTo('0'))
      .addColumn('is_insert', text, (c) => c.notNull().defaultTo('0'))
      .addColumn('is_edit', text, (c) => c.notNull().defaultTo('0'))
      .addColumn('is_list', text, (c) => c.notNull().defaultTo('0'))
      .addColumn('is_search', text, (c) => c.notNull().defaultTo('0'))
      .addColumn('search_op', text, (c) => c.notNull().defaultTo('eq')) // eq | like | range | dateRange
      .addColumn('is_sortable', text, (c) => c.notNull().defaultTo('0'))
      .addColumn('dict_type', text, (c) => c.notNull().defaultTo(''))
      .addColumn('widget', text, (c) => c.notNull().defaultTo('text')) // x-ui.widget
      .addColumn('max_length', 'integer') // from varchar(n)
      .addColumn('sort', 'integer', (c) => c.notNull().defaultTo(0))
      .execute();
    await s.createIndex('gen_table_column_table').on('gen_table_column').column('table_id').execute();
  },
};
