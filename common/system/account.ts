/** 修改密码 (POST /dev-api/api/account/savePass, spec §5): what the console sends; the server checks every field again. */
export interface SavePassBody {
  /** The account's mobile, when it has one (the server checks it matches). */
  mobile?: string;
  /** Optional: new users have no old password to give. */
  oldpass?: string;
  qrPass: string;
  pass: string;
}

/** 注册 (POST /dev-api/register): the register page's form; mobile and code when 注册设置 asks for an SMS code. */
export interface RegisterBody {
  username: string;
  password: string;
  confirmPassword: string;
  mobile?: string;
  realName?: string;
  code?: string;
}
