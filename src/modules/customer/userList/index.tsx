import { CustomerListPage } from '../shared/CustomerListPage';

/** 用户列表 (manage/userList/index). */
export default function UserListPage() {
  return <CustomerListPage mode="users" />;
}
