// A real captureScreenshot for installPlayable: renders the scan root to a PNG
// through an SVG <foreignObject> drawn on a canvas. No library, no network:
// the page's same-origin CSS is inlined, form values are copied into the
// clone (a clone does not carry what a person typed), and the result is
// { mime, width, height, bytesBase64 }, which the snapshot carries untouched.

const MAX_SIDE = 4096; // keeps the canvas (and the base64 string) bounded

/** @param {Document | ShadowRoot | Element} scope */
export async function captureScreenshot(scope) {
  const el = scope.nodeType === Node.DOCUMENT_NODE ? scope.body : scope.nodeType === Node.DOCUMENT_FRAGMENT_NODE ? scope.host : scope;
  const rect = el.getBoundingClientRect();
  const width = Math.min(MAX_SIDE, Math.max(1, Math.ceil(Math.max(rect.width, el.scrollWidth))));
  const height = Math.min(MAX_SIDE, Math.max(1, Math.ceil(Math.max(rect.height, el.scrollHeight))));

  const clone = el.cloneNode(true);
  copyFormState(el, clone);
  const context = getComputedStyle(el.parentElement || el);
  const background = opaqueBackground(el);
  const wrapperStyle = [
    `width:${width}px`,
    `height:${height}px`,
    `font:${context.font}`,
    `color:${context.color}`,
    `background:${background}`,
    "margin:0",
  ].join(";");
  const svg =
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}">` +
    `<foreignObject x="0" y="0" width="100%" height="100%">` +
    `<div xmlns="http://www.w3.org/1999/xhtml" style="${escapeXml(wrapperStyle)}">` +
    `<style>${escapeXml(sameOriginCss(el))}</style>` +
    new XMLSerializer().serializeToString(clone) +
    `</div></foreignObject></svg>`;

  const image = new Image();
  image.src = "data:image/svg+xml;charset=utf-8," + encodeURIComponent(svg);
  await image.decode();
  const canvas = document.createElement("canvas");
  canvas.width = width;
  canvas.height = height;
  const ctx = canvas.getContext("2d");
  ctx.fillStyle = background;
  ctx.fillRect(0, 0, width, height);
  ctx.drawImage(image, 0, 0);
  const url = canvas.toDataURL("image/png");
  return { mime: "image/png", width, height, bytesBase64: url.slice(url.indexOf(",") + 1) };
}

function copyFormState(source, clone) {
  const from = source.querySelectorAll("input, textarea, select");
  const to = clone.querySelectorAll("input, textarea, select");
  from.forEach((field, i) => {
    const copy = to[i];
    if (field.tagName === "TEXTAREA") copy.textContent = field.value;
    else if (field.tagName === "SELECT") copy.querySelectorAll("option").forEach((o, j) => o.toggleAttribute("selected", field.options[j]?.selected));
    else if (field.type === "checkbox" || field.type === "radio") copy.toggleAttribute("checked", field.checked);
    else copy.setAttribute("value", field.value);
  });
}

// The first non-transparent background from the element up, so the PNG is
// what a person sees and never a transparent (blank-looking) image.
function opaqueBackground(el) {
  for (let node = el; node; node = node.parentElement) {
    const bg = getComputedStyle(node).backgroundColor;
    if (bg && bg !== "transparent" && !/rgba\(.*,\s*0\)$/.test(bg)) return bg;
  }
  return "#ffffff";
}

function sameOriginCss(el) {
  const sheets = [...(el.getRootNode().styleSheets || []), ...(el.ownerDocument.styleSheets || [])];
  const out = [];
  for (const sheet of new Set(sheets)) {
    try {
      for (const rule of sheet.cssRules) out.push(rule.cssText);
    } catch {
      // A cross-origin sheet cannot be read; the capture goes without it.
    }
  }
  return out.join("\n");
}

function escapeXml(text) {
  return text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;");
}
