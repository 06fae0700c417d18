// Shared by both pages: the JSON API, the error line, the navigation to run pages.
"use strict";

async function api(path, body) {
  const init = body === undefined ? {} : {
    method: "POST",
    headers: {"Content-Type": "application/json"},
    body: JSON.stringify(body),
  };
  let response;
  try {
    response = await fetch(path, init);
  } catch (e) {
    throw new Error("the evoplay server does not answer (was it stopped?)");
  }
  let data = null;
  try {
    data = await response.json();
  } catch (e) {
    throw new Error(`the server answered ${response.status} without JSON`);
  }
  if (!response.ok) {
    throw new Error(data && data.error ? data.error : `the server answered ${response.status}`);
  }
  return data;
}

function showError(message) {
  document.getElementById("error-text").textContent = message;
  document.getElementById("error").hidden = false;
}

function clearError() {
  document.getElementById("error").hidden = true;
  document.getElementById("error-text").textContent = "";
}

function el(tag, attrs, ...children) {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs || {})) {
    if (key === "class") node.className = value;
    else if (key === "text") node.textContent = value;
    else node.setAttribute(key, value);
  }
  for (const child of children) node.append(child);
  return node;
}

async function loadNav(currentRun) {
  document.getElementById("error-close").addEventListener("click", clearError);
  try {
    const {runs} = await api("/api/runs");
    const nav = document.getElementById("nav");
    for (const run of runs) {
      const link = el("a", {href: `/run?id=${run.id}`, text: `Run: ${run.name}`, title: run.path});
      if (run.id === currentRun) link.setAttribute("aria-current", "page");
      nav.append(link);
    }
  } catch (e) {
    showError(e.message);
  }
}
