// The /site/live/<channel> player (server/content/livePage.ts, docs/content.md "直播"). A 预告 reloads itself at its
// start. A stream plays with hls.js where the browser has Media Source Extensions (hls.js's own advice: prefer it even
// where the browser also claims native HLS, as recent Chromium does), else with the browser's own HLS (Safari on iOS),
// and the page says in words why a stream does not play. A plain file of the site's own origin, so the site's CSP
// needs no inline script.
(() => {
  // 预告 within a day of its start: reload at the start, when the server will answer the player. The server counted the
  // seconds (the viewer's clock may be off); a few random seconds spread the reloads of a large audience.
  const startsIn = document.querySelector('[data-live-starts-in]');
  if (startsIn) {
    const seconds = Number(startsIn.getAttribute('data-live-starts-in'));
    if (seconds > 0 && seconds <= 86400) setTimeout(() => window.location.reload(), (seconds + 1 + Math.random() * 4) * 1000);
    return;
  }
  const video = document.querySelector('video[data-live-src]');
  const message = document.querySelector('[data-live-message]');
  if (!video || !message) return;
  const src = video.getAttribute('data-live-src');
  const say = (text) => {
    message.textContent = text;
    message.hidden = false;
    video.setAttribute('data-live-error', text);
  };
  const NETWORK = '网络错误：无法加载直播流，请检查网络后刷新重试';
  const MEDIA = '直播流无法播放，请稍后刷新重试';
  const isHls = /\.m3u8(\?|#|$)/i.test(src) || video.getAttribute('data-live-kind') === 'live';
  const Hls = window.Hls;
  if (isHls && Hls?.isSupported()) {
    const hls = new Hls({ enableWorker: true, lowLatencyMode: false });
    let recovered = false;
    hls.on(Hls.Events.ERROR, (_event, data) => {
      if (!data.fatal) return;
      if (data.type === Hls.ErrorTypes.MEDIA_ERROR && !recovered) {
        recovered = true; // one decode hiccup is recovered from, as hls.js advises; a second one is reported
        hls.recoverMediaError();
        return;
      }
      say(data.type === Hls.ErrorTypes.NETWORK_ERROR ? NETWORK : MEDIA);
      hls.destroy();
    });
    hls.loadSource(src);
    hls.attachMedia(video);
    return;
  }
  if (isHls && !video.canPlayType('application/vnd.apple.mpegurl')) {
    say('当前浏览器无法播放直播，请使用最新版 Chrome、Edge、Firefox 或 Safari');
    return;
  }
  video.addEventListener('error', () => say(video.error && video.error.code === 2 ? NETWORK : MEDIA));
  video.src = src;
})();
