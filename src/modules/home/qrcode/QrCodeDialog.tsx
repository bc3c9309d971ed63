import type { PlatformInfo } from '@common/system/platform';
import { Col, Empty, Modal, Row, Typography } from 'antd';
import QRCode from 'qrcode';
import { useEffect, useState } from 'react';

/** The platform's links that get a code (平台设置 › 地址). */
const LINKS: Array<{ key: 'wxapp' | 'appdown' | 'h5addr'; title: string }> = [
  { key: 'wxapp', title: '小程序' },
  { key: 'appdown', title: 'APP下载' },
  { key: 'h5addr', title: 'H5' },
];

const absolute = (url: string) => (/^https?:\/\//i.test(url) ? url : new URL(url, window.location.origin).href);

/** 二维码 dialog (spec §2.3 QR-code dialog): the platform's real mini-program, app-download and H5 links as QR codes. */
export function QrCodeDialog({ open, onClose, platform }: { open: boolean; onClose: () => void; platform: PlatformInfo | null }) {
  const [codes, setCodes] = useState<Record<string, string>>({});
  useEffect(() => {
    if (!open || !platform) return;
    let live = true;
    const wanted = LINKS.map((l) => ({ ...l, url: String(platform[l.key] ?? '').trim() })).filter((l) => l.url);
    Promise.all(wanted.map(async (l) => [l.key, await QRCode.toDataURL(absolute(l.url), { width: 200, margin: 1, errorCorrectionLevel: 'M' })] as const))
      .then((pairs) => live && setCodes(Object.fromEntries(pairs)))
      .catch(() => undefined);
    return () => {
      live = false;
    };
  }, [open, platform]);
  return (
    <Modal title="扫码访问" open={open} onCancel={onClose} footer={null} width={760} destroyOnHidden>
      <Row gutter={16}>
        {LINKS.map((l) => {
          const url = String(platform?.[l.key] ?? '').trim();
          return (
            <Col key={l.key} span={8} style={{ textAlign: 'center' }}>
              <Typography.Title level={5}>{l.title}</Typography.Title>
              {url && codes[l.key] ? (
                <>
                  <img src={codes[l.key]} alt={`${l.title}二维码`} width={180} height={180} data-qrcode={absolute(url)} />
                  <Typography.Paragraph copyable={{ text: absolute(url) }} style={{ fontSize: 12, wordBreak: 'break-all' }}>
                    {absolute(url)}
                  </Typography.Paragraph>
                </>
              ) : (
                <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description="未设置，请在 平台设置 › 地址 中填写" />
              )}
            </Col>
          );
        })}
      </Row>
    </Modal>
  );
}
