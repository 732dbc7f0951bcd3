/**
 * @file report_html.hpp
 * @brief `arcoll report`: the self-contained HTML page around the report's
 *        JSON (report_data.hpp): static tables, the data as an inline JSON
 *        script, the Vega runtime inlined from the Debian package libjs-vega
 *        and the page's plotting script (template tools/report/page.html,
 *        compiled into the binary). The page opens offline: it loads nothing.
 */
#ifndef ARCOLL_TOOLS_REPORT_HTML_HPP
#define ARCOLL_TOOLS_REPORT_HTML_HPP

#include <nlohmann/json.hpp>
#include <string>

namespace arcoll::report {

/** Where the Vega files are read: $ARCOLL_VEGA_DIR when set, else the
 *  directory configured at build time (default /usr/share/javascript/vega,
 *  Debian libjs-vega). */
std::string vega_dir();

/**
 * The Vega runtime as one script: the CommonJS builds of the vega-* modules
 * of `dir` (*.min.js, UMD) wrapped in a small module loader that exposes the
 * global `vega` as the single-file bundle does (modules merged, transforms
 * registered). Throws std::runtime_error naming the missing file and the
 * Debian package (libjs-vega) when a module cannot be read.
 */
std::string vega_script(const std::string &dir);

/** The whole page for `data` with `vega_js` (vega_script()) inlined. */
std::string render_page(const nlohmann::json &data, const std::string &vega_js);

/** The page's body sections (report_sections.cpp): static tables (totals,
 *  call sites, algorithm choices, placement costs), headings, notes and the
 *  empty containers the page's script draws the plots into. */
std::string render_sections(const nlohmann::json &data);

/** Escapes & < > " for HTML text and attributes. */
std::string html_escape(const std::string &s);

}  // namespace arcoll::report

#endif
