/** 学生志愿 (menu component volunteer/index). */
export { default } from './StudentsPage';
