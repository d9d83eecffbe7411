/**
 * The dashboard's one stylesheet, served by the app at DASHBOARD_PATHS.stylesheet (the pages'
 * CSP allows styles from the site only: no inline style anywhere). Small screens first; colours
 * meet WCAG AA contrast (4.5:1 for text) on their backgrounds.
 */
export const STYLESHEET = `
*,*::before,*::after{box-sizing:border-box}
body{margin:0;font:16px/1.5 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;color:#1a1a1a;background:#fff}
a{color:#0b57d0}
a:focus-visible,button:focus-visible,input:focus-visible,main:focus-visible{outline:3px solid #1a1a1a;outline-offset:2px}
.skip-link{position:absolute;left:-10000px;top:0;padding:.5rem 1rem;background:#1a1a1a;color:#fff}
.skip-link:focus{left:0;z-index:1}
.visually-hidden{position:absolute;width:1px;height:1px;overflow:hidden;clip:rect(0 0 0 0);white-space:nowrap}
.site-header{display:flex;flex-wrap:wrap;align-items:center;gap:.5rem 1rem;padding:.75rem 1rem;border-bottom:1px solid #c4c4c4}
.site-header p{margin:0}
.product{font-weight:700}
.account{flex:1 1 auto}
.environment-switch{display:flex;align-items:center;gap:.25rem}
.environment-label{font-size:.875rem;color:#4a4a4a}
.environment-switch button{padding:.25rem .75rem;border:1px solid #0b57d0;background:#fff;color:#0b57d0;border-radius:4px;font:inherit;cursor:pointer}
.environment-switch button[aria-pressed="true"]{background:#0b57d0;color:#fff}
.link-button{border:0;background:none;color:#0b57d0;text-decoration:underline;font:inherit;cursor:pointer;padding:.25rem}
.test-data-banner{margin:0;padding:.5rem 1rem;background:#fff4ce;color:#4d3800;border-bottom:2px solid #8a6d00;font-weight:600}
body.sandbox{border-top:6px solid #8a6d00}
.site-nav{padding:.5rem 1rem;border-bottom:1px solid #c4c4c4}
.site-nav ul{list-style:none;margin:0;padding:0;display:flex;flex-wrap:wrap;gap:.25rem 1rem}
.site-nav ul ul{padding-left:1rem;font-size:.9375rem}
.site-nav a{display:inline-block;padding:.25rem 0}
.site-nav a[aria-current="page"]{font-weight:700;color:#1a1a1a}
main{padding:1rem;max-width:72rem}
h1{font-size:1.5rem;margin:.5rem 0 1rem;overflow-wrap:anywhere}
.field{margin:0 0 1rem}
.field label{display:block;font-weight:600}
.field input{display:block;width:100%;max-width:30rem;padding:.5rem;border:1px solid #6b6b6b;border-radius:4px;font:inherit}
.field-invalid input{border:2px solid #b3261e}
.hint{margin:.125rem 0;color:#4a4a4a}
.error,.notice-error{color:#b3261e;font-weight:600}
.notice{padding:.75rem 1rem;border-left:4px solid #0b57d0;background:#eef3fd}
.notice-error{border-left-color:#b3261e;background:#fceeee;padding:.75rem 1rem;border-left:4px solid #b3261e}
button.primary{padding:.5rem 1.25rem;border:0;border-radius:4px;background:#0b57d0;color:#fff;font:inherit;cursor:pointer}
.empty-state{padding:1rem;border:1px dashed #6b6b6b;border-radius:4px}
.empty-state-title{font-weight:700;margin:0 0 .25rem}
.table-scroll{position:relative;overflow-x:auto;margin:0 0 1rem}
.data-table{border-collapse:collapse;width:100%;min-width:36rem}
.data-table caption{text-align:left;font-weight:700;padding:.25rem 0}
.data-table th,.data-table td{padding:.375rem .5rem;border-bottom:1px solid #c4c4c4;text-align:left;vertical-align:top}
.data-table .numeric{text-align:right;font-variant-numeric:tabular-nums}
.pagination{display:flex;flex-wrap:wrap;align-items:center;gap:.5rem 1rem;margin:0 0 1rem}
.pagination p{margin:0}
.pagination ul{list-style:none;display:flex;gap:1rem;margin:0;padding:0}
.details{margin:0 0 1rem}
.details-row{display:flex;flex-wrap:wrap;gap:0 1rem;padding:.25rem 0;border-bottom:1px solid #e0e0e0}
.details dt{font-weight:600;min-width:12rem}
.details dd{margin:0;overflow-wrap:anywhere}
.timeline{list-style:none;margin:0 0 1rem;padding:0 0 0 1rem;border-left:3px solid #0b57d0}
.timeline li{margin:0 0 .75rem}
.timeline time{font-size:.875rem;color:#4a4a4a}
.timeline-title{margin:0;font-weight:600}
.filters{display:flex;flex-wrap:wrap;gap:0 1rem;align-items:flex-end;margin:0 0 1rem}
.filters .field input,.filters .field select{max-width:14rem}
.filter-actions{display:flex;gap:1rem;align-items:center;margin:0 0 1rem}
.field select{display:block;padding:.5rem;border:1px solid #6b6b6b;border-radius:4px;font:inherit;background:#fff;color:#1a1a1a}
.copy-value{font-family:ui-monospace,monospace}
h2{font-size:1.25rem;margin:1.5rem 0 .75rem}
button.secondary{padding:.5rem 1.25rem;border:1px solid #0b57d0;border-radius:4px;background:#fff;color:#0b57d0;font:inherit;cursor:pointer}
button.danger{padding:.5rem 1.25rem;border:0;border-radius:4px;background:#b3261e;color:#fff;font:inherit;cursor:pointer}
select:focus-visible,textarea:focus-visible,.table-scroll:focus-visible{outline:3px solid #1a1a1a;outline-offset:2px}
.actions{display:flex;flex-wrap:wrap;gap:.75rem;margin:0 0 1rem}
.api-integration-secret{margin:0 0 1.5rem;padding:1rem;border:2px solid #8a6d00;border-radius:4px}
.api-integration-secret h2{margin-top:0}
.api-integration-warning{margin:0 0 1rem;padding:.5rem .75rem;background:#fff4ce;color:#4d3800;font-weight:600}
.api-integration-disabled{margin:0 0 1rem;padding:.75rem 1rem;border-left:4px solid #b3261e;background:#fceeee;color:#1a1a1a}
.api-integration-disabled p{margin:0 0 .5rem}
.api-integration-disabled-title{font-weight:700;color:#b3261e}
.api-integration-failing{padding:.5rem .75rem;background:#fff4ce;color:#4d3800}
.api-integration-url,.api-integration-id{overflow-wrap:anywhere;word-break:break-all}
.data-table .api-integration-id{word-break:normal;overflow-wrap:normal;white-space:nowrap}
.api-integration-body{margin:0 0 1rem;padding:.75rem;background:#f4f4f4;color:#1a1a1a;border:1px solid #c4c4c4;border-radius:4px;font-family:ui-monospace,monospace;font-size:.875rem;white-space:pre-wrap;overflow-wrap:anywhere}
.data-table form{margin:0}
.api-integration-resend{position:relative}
.payments-sum{margin:0 0 1rem;font-variant-numeric:tabular-nums}
.home-figures{display:grid;gap:.75rem;margin:0 0 1rem}
.home-figure{padding:.75rem;border:1px solid #c4c4c4;border-radius:4px}
.home-figure dt{font-weight:600}
.home-figure dt code{font-weight:400;font-size:.875rem;color:#4a4a4a;overflow-wrap:anywhere}
.home-figure-value{margin:0;font-size:1.25rem;font-weight:700;font-variant-numeric:tabular-nums}
.home-figure-note{margin:0;color:#4a4a4a}
.home-flows{display:grid;gap:1rem;margin:0 0 1rem}
.home-chart svg{display:block;width:100%;max-width:45rem;height:auto}
.home-flows .table-scroll{max-height:24rem;overflow-y:auto}
.home-flows .data-table{min-width:0}
.home-pending .data-table td,.home-flows .data-table td,.balance-transactions .data-table td,.balance-settlements .data-table td{white-space:nowrap}
.balance-transactions .data-table td:nth-child(3){white-space:normal;min-width:14rem}
.balance-download{font-weight:600}
@media (min-width:40rem){.home-figures{grid-template-columns:repeat(2,minmax(0,1fr))}}
@media (min-width:64rem){.home-figures{grid-template-columns:repeat(3,minmax(0,1fr))}.home-flows{grid-template-columns:minmax(0,3fr) minmax(0,2fr);align-items:start}}
.settings-section{margin:0 0 2rem;padding:0 0 1rem;border-bottom:1px solid #c4c4c4}
.field textarea{display:block;width:100%;max-width:30rem;padding:.5rem;border:1px solid #6b6b6b;border-radius:4px;font:inherit;font-family:ui-monospace,monospace;color:#1a1a1a;background:#fff}
.field-invalid textarea,.settings-section .field-invalid select{border:2px solid #b3261e}
.settings-checkboxes{margin:0 0 1rem;padding:.5rem .75rem;border:1px solid #c4c4c4;border-radius:4px;max-width:30rem}
.settings-checkboxes legend{font-weight:600;padding:0 .25rem}
.settings-checkboxes.field-invalid{border:2px solid #b3261e}
.settings-checkbox{display:flex;align-items:center;gap:.5rem;padding:.25rem 0}
.settings-checkbox input{width:1.25rem;height:1.25rem;margin:0}
.settings-checkbox input:focus-visible{outline:3px solid #1a1a1a;outline-offset:2px}
.settings-warning{margin:0 0 1rem;padding:.5rem .75rem;background:#fff4ce;color:#4d3800;font-weight:600}
.settings-issued{margin:0 0 1.5rem;padding:1rem;border:2px solid #8a6d00;border-radius:4px}
.settings-issued h2{margin-top:0}
.settings-refusal{margin:0}
.settings-refusal a{color:#b3261e}
.settings-inline-form{position:relative}
.settings-inline-form button{padding:.25rem .75rem}
.settings-section code{overflow-wrap:anywhere}
.settings-section .field select{max-width:100%}
.send-payouts-new{display:inline-block;padding:.5rem 1.25rem;border-radius:4px;background:#0b57d0;color:#fff;font-weight:600;text-decoration:none}
.send-payouts-new:hover{background:#0842a0}
.send-payouts-new:focus-visible{outline:3px solid #1a1a1a;outline-offset:2px}
.send-payouts-id{font-family:ui-monospace,monospace;overflow-wrap:anywhere}
.data-table .send-payouts-id{overflow-wrap:normal;white-space:nowrap}
.send-payouts-link .field input{max-width:48rem}
@media (min-width:48rem){.site-nav ul ul{display:inline-flex;padding-left:.5rem}}
`;
