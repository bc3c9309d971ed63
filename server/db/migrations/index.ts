// The migrations in order, apart from migrate.ts, so that the backup code (which reads the list and takes the lock)
// and migrate.ts (which loads the backup code before an upgrade) do not import each other.
import { migration001 } from './001_platform_core.js';
import { migration002 } from './002_admission_data.js';
import { migration003 } from './003_version_log.js';
import { migration004 } from './004_oper_log.js';
import { migration005 } from './005_volunteer.js';
import { migration006 } from './006_role_dept.js';
import { migration007 } from './007_gen_table.js';
import { migration008 } from './008_settings.js';
import { migration009 } from './009_security.js';
import { migration010 } from './010_jobs.js';
import { migration012 } from './012_customer.js';
import { migration013 } from './013_admission_years.js';
import { migration014 } from './014_customer_menu_name.js';
import { migration015 } from './015_customer_jobs.js';
import { migration016 } from './016_finance_ledger.js';
import { migration017 } from './017_finance_payments.js';
import { migration018 } from './018_home.js';
import { migration019 } from './019_service.js';
import { migration020 } from './020_menu_seed_log.js';
import { migration021 } from './021_volunteer_special.js';
import { migration022 } from './022_idempotency.js';
import { migration023 } from './023_store_scope.js';
import { migration024 } from './024_backup_job.js';
import type { Migration } from './helpers.js';

/** Ordered, append-only list. A released migration never changes; add a new one instead. */
export const migrations: Migration[] = [
  migration001,
  migration002,
  migration003,
  migration004,
  migration005,
  migration006,
  migration007,
  migration008,
  migration009,
  migration010,
  migration012,
  migration013,
  migration014,
  migration015,
  migration016,
  migration017,
  migration018,
  migration019,
  migration020,
  migration021,
  migration022,
  migration023,
  migration024,
];

/** The advisory lock that serialises migrations on PostgreSQL; a backup holds it shared so none runs mid-dump. */
export const MIGRATION_LOCK = 727274;
