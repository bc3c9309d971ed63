import { HttpResponse, http as mock } from 'msw';
import { setupServer } from 'msw/node';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { DOWNLOAD_FAILED, fetchFile } from '@/api/download';
import { setFeedback } from '@/api/request';
import { useRealKeys } from './keys';

/** Downloads (spec §7.6, §8): real files keep their server-given name; JSON errors inside blobs become messages. */
const server = setupServer();
const real = useRealKeys();
const silent = { message: { error: () => undefined, warning: () => undefined }, notification: { error: () => undefined }, modal: { confirm: () => undefined } };
beforeAll(() => {
  server.listen({ onUnhandledRequest: 'error' });
  setFeedback(silent as never);
});
afterEach(() => server.resetHandlers());
afterAll(() => {
  server.close();
  real.cleanup();
});

describe('fetchFile', () => {
  it('returns the blob and the name from the download-filename header', async () => {
    server.use(
      mock.get(
        '*/dev-api/common/download',
        () => new HttpResponse('a,b\n1,2\n', { headers: { 'content-type': 'text/csv', 'download-filename': encodeURIComponent('志愿表.csv') } }),
      ),
    );
    const { blob, fileName } = await fetchFile('/dev-api/common/download', { params: { fileName: 'x.csv' } });
    expect(fileName).toBe('志愿表.csv');
    expect(await blob.text()).toBe('a,b\n1,2\n');
  });

  it('a JSON error in the blob becomes its message (msg, else the code default)', async () => {
    server.use(mock.get('*/dev-api/common/download', () => HttpResponse.json({ code: 500, msg: '文件不存在' })));
    await expect(fetchFile('/dev-api/common/download')).rejects.toThrow('文件不存在');
    server.use(mock.get('*/dev-api/common/download', () => HttpResponse.json({ code: 403 })));
    await expect(fetchFile('/dev-api/common/download')).rejects.toThrow('当前操作没有权限');
  });

  it('any other failure says 下载文件出现错误，请联系管理员！', async () => {
    server.use(mock.get('*/dev-api/common/download', () => new HttpResponse('{broken', { headers: { 'content-type': 'application/json' } })));
    await expect(fetchFile('/dev-api/common/download')).rejects.toThrow(DOWNLOAD_FAILED);
  });
});
