import { SettingsPage } from './SettingsPage';

/** 注册设置 (system/registerSettings/index): self-service registration at /register. */
export default function RegisterSettings() {
  return (
    <SettingsPage
      group="register"
      title="注册设置"
      description="控制登录页的“立即注册”入口与自助注册接口：关闭后新用户无法自行注册；新注册账号获得所选的默认角色。"
      editPermission="system:register:edit"
      fields={[
        { key: 'registerEnabled', label: '开放注册', widget: 'switch', on: '开放', off: '关闭', help: '关闭后登录页不再显示“立即注册”，注册接口拒绝新注册' },
        { key: 'defaultRoleKey', label: '注册默认角色', widget: 'role', exclude: ['admin'], help: '自助注册的账号自动获得此角色（不能是超级管理员）' },
        { key: 'smsRequired', label: '需要短信验证码', widget: 'switch', on: '需要', off: '不需要', help: '开启后注册时必须填写手机号并通过短信验证码校验' },
        { key: 'agreement', label: '注册协议', widget: 'richText', help: '填写后注册页要求勾选“我已阅读并同意《用户注册协议》”；留空则不显示' },
      ]}
    />
  );
}
