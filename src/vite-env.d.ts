/// <reference types="vite/client" />

declare const __APP_PUBLISH_TIME__: string;
declare const __APP_VERSION__: string;
