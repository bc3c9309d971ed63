import { Alert, Button, Card, Image, Select, Space, Typography } from 'antd';
import { useEffect, useState } from 'react';
import { saveBlob } from '@/api/download';
import { fetchPoster, type PosterSchool, posterSchools } from '@/api/service';

/** 营销图库's generated posters: a school's card with its admission lines of the last years, drawn by the server as PNG. */
export function PosterCard() {
  const [schools, setSchools] = useState<PosterSchool[]>([]);
  const [schoolId, setSchoolId] = useState<number>();
  const [poster, setPoster] = useState<{ url: string; blob: Blob; fileName: string } | null>(null);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const search = (keyword: string) =>
    posterSchools(keyword)
      .then(setSchools)
      .catch(() => undefined);
  useEffect(() => {
    search('');
  }, []);
  useEffect(() => () => (poster ? URL.revokeObjectURL(poster.url) : undefined), [poster]);

  const make = async () => {
    if (!schoolId) return;
    setBusy(true);
    setError(null);
    try {
      const { blob, fileName } = await fetchPoster(schoolId);
      setPoster({ url: URL.createObjectURL(blob), blob, fileName });
    } catch (e) {
      setError((e as Error).message);
    } finally {
      setBusy(false);
    }
  };

  return (
    <Card size="small" title="院校录取海报" style={{ margin: '16px 16px 0' }}>
      <Space align="start" size={24} wrap>
        <Space direction="vertical">
          <Typography.Text type="secondary">选择院校，按其近年最低投档线与位次生成宣传海报（PNG）。</Typography.Text>
          <Space>
            <Select
              showSearch
              allowClear
              style={{ width: 320 }}
              placeholder="输入院校名称或代码搜索"
              filterOption={false}
              onSearch={search}
              value={schoolId}
              onChange={setSchoolId}
              options={schools.map((s) => ({ value: s.schoolId, label: `${s.name}（${s.schoolCode}）` }))}
            />
            <Button type="primary" disabled={!schoolId} loading={busy} onClick={make}>
              生成海报
            </Button>
            {poster && <Button onClick={() => saveBlob(poster.blob, poster.fileName)}>下载海报</Button>}
          </Space>
          {error && <Alert type="error" showIcon message={error} />}
        </Space>
        {poster && <Image src={poster.url} alt="院校录取海报" width={200} />}
      </Space>
    </Card>
  );
}
