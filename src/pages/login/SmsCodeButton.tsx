import { Button, message } from 'antd';
import { useEffect, useState } from 'react';
import { sendSmsCode } from '@/api/login';

const MOBILE = /^1[3-9]\d{9}$/;

/** 获取验证码 with a 60-second countdown; the server's answer (which names the demo log driver) is shown as is. */
export function SmsCodeButton({ mobile, purpose }: { mobile: string | undefined; purpose: 'login' | 'register' }) {
  const [seconds, setSeconds] = useState(0);
  const [sending, setSending] = useState(false);

  useEffect(() => {
    if (seconds <= 0) return;
    const timer = setTimeout(() => setSeconds((s) => s - 1), 1000);
    return () => clearTimeout(timer);
  }, [seconds]);

  const send = async () => {
    if (!mobile || !MOBILE.test(mobile)) {
      message.error('请输入正确的手机号');
      return;
    }
    setSending(true);
    try {
      message.success(await sendSmsCode(mobile, purpose), 5);
      setSeconds(60);
    } catch {
      // The http layer has shown the server's reason (e.g. sent too often).
    } finally {
      setSending(false);
    }
  };

  return (
    <Button onClick={send} loading={sending} disabled={seconds > 0} style={{ width: 120 }}>
      {seconds > 0 ? `${seconds} 秒后重试` : '获取验证码'}
    </Button>
  );
}
