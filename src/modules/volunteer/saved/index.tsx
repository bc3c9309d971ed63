import StudentsPage from '../students/StudentsPage';

/** 志愿保存 (menu component savevolunteer/index): students' saved plans with PDF / Excel export. */
export default function SavedPlans() {
  return <StudentsPage mode="saved" />;
}
