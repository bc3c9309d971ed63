import { CustomerListPage } from '../shared/CustomerListPage';

/** 回收站 (manage/recycle/index). */
export default function RecyclePage() {
  return <CustomerListPage mode="recycle" />;
}
