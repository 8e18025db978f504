#include "agent/json_value.h"
#include "folio/agent.h"

#include <sqlite3.h>

#include <cctype>
#include <chrono>
#include <filesystem>
#include <fstream>
#include <sstream>

namespace folio {

struct SqlTool::Impl {
    sqlite3* db = nullptr;
    ~Impl() {
        if (db)
            sqlite3_close(db);
    }
};

namespace {

using Clock = std::chrono::steady_clock;

// Allows reading only: SELECT, reading columns, functions, recursive CTEs. Everything else
// (INSERT/UPDATE/DELETE, CREATE/DROP, ATTACH/DETACH, PRAGMA, transactions, ...) is denied.
int read_only_authorizer(void*, int action, const char*, const char*, const char*, const char*) {
    switch (action) {
    case SQLITE_SELECT:
    case SQLITE_READ:
    case SQLITE_FUNCTION:
    case SQLITE_RECURSIVE:
        return SQLITE_OK;
    default:
        return SQLITE_DENY;
    }
}

struct Deadline {
    Clock::time_point until;
};

int check_deadline(void* p) {
    return Clock::now() > static_cast<Deadline*>(p)->until ? 1 : 0; // non-zero interrupts
}

Error sql_error(sqlite3* db, const std::string& what) {
    return Error{ErrorCode::InvalidArgument, what + ": " + sqlite3_errmsg(db)};
}

void harden(sqlite3* db) {
    sqlite3_db_config(db, SQLITE_DBCONFIG_ENABLE_LOAD_EXTENSION, 0, nullptr);
    sqlite3_db_config(db, SQLITE_DBCONFIG_DEFENSIVE, 1, nullptr);
    sqlite3_db_config(db, SQLITE_DBCONFIG_TRUSTED_SCHEMA, 0, nullptr);
    sqlite3_limit(db, SQLITE_LIMIT_ATTACHED, 0);
    sqlite3_limit(db, SQLITE_LIMIT_SQL_LENGTH, 100000);
    sqlite3_limit(db, SQLITE_LIMIT_LENGTH, 10000000);
    sqlite3_exec(db, "PRAGMA query_only = ON", nullptr, nullptr, nullptr);
    sqlite3_set_authorizer(db, read_only_authorizer, nullptr);
}

// RFC 4180 records: quoted fields may hold commas, quotes ("") and newlines.
std::vector<std::vector<std::string>> parse_csv(const std::string& text) {
    std::vector<std::vector<std::string>> rows;
    std::vector<std::string> row;
    std::string field;
    bool quoted = false, any = false;
    for (size_t i = 0; i < text.size(); ++i) {
        const char c = text[i];
        if (quoted) {
            if (c == '"' && i + 1 < text.size() && text[i + 1] == '"') {
                field += '"';
                ++i;
            } else if (c == '"') {
                quoted = false;
            } else {
                field += c;
            }
            continue;
        }
        if (c == '"') {
            quoted = true;
            any = true;
        } else if (c == ',') {
            row.push_back(std::move(field));
            field.clear();
            any = true;
        } else if (c == '\n' || c == '\r') {
            if (c == '\r' && i + 1 < text.size() && text[i + 1] == '\n')
                ++i;
            if (any || !field.empty()) {
                row.push_back(std::move(field));
                rows.push_back(std::move(row));
            }
            row.clear();
            field.clear();
            any = false;
        } else {
            field += c;
            any = true;
        }
    }
    if (any || !field.empty()) {
        row.push_back(std::move(field));
        rows.push_back(std::move(row));
    }
    return rows;
}

std::string identifier(const std::string& s, const std::string& fallback) {
    std::string out;
    for (char c : s)
        out += std::isalnum(static_cast<unsigned char>(c)) ? c : '_';
    if (out.empty() || std::isdigit(static_cast<unsigned char>(out[0])))
        out = fallback + out;
    return out;
}

std::string quote_identifier(const std::string& s) {
    std::string out(1, '"');
    for (char c : s) {
        out.push_back(c);
        if (c == '"')
            out.push_back('"');
    }
    out.push_back('"');
    return out;
}

} // namespace

SqlTool::~SqlTool() = default;
SqlTool::SqlTool(SqlTool&&) noexcept = default;
SqlTool& SqlTool::operator=(SqlTool&&) noexcept = default;

Expected<SqlTool> SqlTool::open_sqlite(const std::string& path) {
    if (!std::filesystem::exists(path))
        return make_error(ErrorCode::NotFound, path + ": no such database");
    SqlTool t;
    t.impl_ = std::make_unique<Impl>();
    const int rc = sqlite3_open_v2(path.c_str(), &t.impl_->db, SQLITE_OPEN_READONLY, nullptr);
    if (rc != SQLITE_OK)
        return sql_error(t.impl_->db, path);
    // A file that is not a database fails here rather than at the first question.
    if (sqlite3_exec(t.impl_->db, "SELECT count(*) FROM sqlite_schema", nullptr, nullptr,
                     nullptr) != SQLITE_OK)
        return sql_error(t.impl_->db, path);
    harden(t.impl_->db);
    return t;
}

Expected<SqlTool> SqlTool::open_csv(const std::vector<std::string>& paths) {
    SqlTool t;
    t.impl_ = std::make_unique<Impl>();
    sqlite3* db = nullptr;
    if (sqlite3_open_v2(":memory:", &db, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE, nullptr) !=
        SQLITE_OK)
        return make_error(ErrorCode::Internal, "cannot open an in-memory database");
    t.impl_->db = db;
    for (const std::string& path : paths) {
        std::ifstream f(path, std::ios::binary);
        if (!f)
            return make_error(ErrorCode::NotFound, path + ": cannot read");
        std::stringstream ss;
        ss << f.rdbuf();
        const auto rows = parse_csv(ss.str());
        if (rows.empty())
            return make_error(ErrorCode::Format, path + ": no header row");
        const std::string table = identifier(std::filesystem::path(path).stem().string(), "t_");
        std::string create = "CREATE TABLE " + quote_identifier(table) + " (";
        std::string insert = "INSERT INTO " + quote_identifier(table) + " VALUES (";
        for (size_t c = 0; c < rows[0].size(); ++c) {
            // NUMERIC affinity: numbers compare and sum as numbers, text stays text.
            create += (c ? ", " : "") +
                      quote_identifier(identifier(rows[0][c], "c_" + std::to_string(c))) +
                      " NUMERIC";
            insert += c ? ", ?" : "?";
        }
        create += ")";
        insert += ")";
        if (sqlite3_exec(db, create.c_str(), nullptr, nullptr, nullptr) != SQLITE_OK)
            return sql_error(db, path);
        sqlite3_stmt* st = nullptr;
        if (sqlite3_prepare_v2(db, insert.c_str(), -1, &st, nullptr) != SQLITE_OK)
            return sql_error(db, path);
        sqlite3_exec(db, "BEGIN", nullptr, nullptr, nullptr);
        for (size_t r = 1; r < rows.size(); ++r) {
            for (size_t c = 0; c < rows[0].size(); ++c) {
                if (c < rows[r].size())
                    sqlite3_bind_text(st, static_cast<int>(c + 1), rows[r][c].c_str(), -1,
                                      SQLITE_TRANSIENT);
                else
                    sqlite3_bind_null(st, static_cast<int>(c + 1));
            }
            if (sqlite3_step(st) != SQLITE_DONE) {
                sqlite3_finalize(st);
                return sql_error(db, path + " row " + std::to_string(r + 1));
            }
            sqlite3_reset(st);
        }
        sqlite3_exec(db, "COMMIT", nullptr, nullptr, nullptr);
        sqlite3_finalize(st);
    }
    harden(db);
    return t;
}

Expected<SqlResult> SqlTool::query(const std::string& sql, const SqlLimits& limits) const {
    sqlite3* db = impl_->db;
    sqlite3_stmt* st = nullptr;
    const char* tail = nullptr;
    if (sqlite3_prepare_v2(db, sql.c_str(), static_cast<int>(sql.size()), &st, &tail) != SQLITE_OK)
        return sql_error(db, "query refused");
    if (!st)
        return make_error(ErrorCode::InvalidArgument, "empty query");
    for (const char* p = tail; p && *p; ++p)
        if (!std::isspace(static_cast<unsigned char>(*p)) && *p != ';') {
            sqlite3_finalize(st);
            return make_error(ErrorCode::InvalidArgument, "one statement per query");
        }
    if (!sqlite3_stmt_readonly(st)) {
        sqlite3_finalize(st);
        return make_error(ErrorCode::InvalidArgument, "query refused: only reading is allowed");
    }
    Deadline deadline{Clock::now() + std::chrono::duration_cast<Clock::duration>(
                                         std::chrono::duration<double>(limits.timeout_seconds))};
    sqlite3_progress_handler(db, 1000, check_deadline, &deadline);
    SqlResult out;
    const int n = sqlite3_column_count(st);
    for (int c = 0; c < n; ++c)
        out.columns.push_back(sqlite3_column_name(st, c));
    int rc;
    while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
        if (static_cast<int>(out.rows.size()) >= limits.max_rows) {
            out.truncated = true;
            break;
        }
        std::vector<std::string> row;
        for (int c = 0; c < n; ++c) {
            const unsigned char* v = sqlite3_column_text(st, c);
            std::string cell = v ? reinterpret_cast<const char*>(v) : "NULL";
            if (cell.size() > limits.max_cell_chars)
                cell = cell.substr(0, limits.max_cell_chars) + "…";
            row.push_back(std::move(cell));
        }
        out.rows.push_back(std::move(row));
    }
    sqlite3_progress_handler(db, 0, nullptr, nullptr);
    if (rc != SQLITE_ROW && rc != SQLITE_DONE) {
        const bool interrupted = rc == SQLITE_INTERRUPT;
        Error e =
            interrupted
                ? Error{ErrorCode::Cancelled,
                        "query stopped after " + std::to_string(limits.timeout_seconds) + " s"}
                : sql_error(db, "query failed");
        sqlite3_finalize(st);
        return e;
    }
    sqlite3_finalize(st);
    return out;
}

std::string SqlTool::schema() const {
    std::string out;
    sqlite3_set_authorizer(impl_->db, nullptr, nullptr); // the schema table itself
    sqlite3_stmt* st = nullptr;
    if (sqlite3_prepare_v2(impl_->db,
                           "SELECT sql FROM sqlite_schema WHERE type = 'table' AND sql IS NOT NULL",
                           -1, &st, nullptr) == SQLITE_OK) {
        while (sqlite3_step(st) == SQLITE_ROW)
            out += std::string(reinterpret_cast<const char*>(sqlite3_column_text(st, 0))) + ";\n";
        sqlite3_finalize(st);
    }
    sqlite3_set_authorizer(impl_->db, read_only_authorizer, nullptr);
    return out;
}

std::string SqlTool::tools_json() const {
    const std::string description =
        "Run one read-only SQL SELECT over the user's data and get the result table. Tables:\n" +
        schema();
    return "[{\"type\": \"function\", \"function\": {\"name\": \"sql_query\", \"description\": " +
           agent::json_quote(description) +
           ", \"parameters\": {\"type\": \"object\", \"properties\": {\"query\": {\"type\": "
           "\"string\", \"description\": \"one SQLite SELECT statement\"}}, \"required\": "
           "[\"query\"]}}}]";
}

std::string SqlResult::to_markdown() const {
    auto esc = [](const std::string& s) {
        std::string o;
        for (char c : s) {
            if (c == '|')
                o.push_back('\\');
            o.push_back(c == '\n' ? ' ' : c);
        }
        return o;
    };
    std::string out("|");
    for (const auto& c : columns) {
        out.push_back(' ');
        out.append(esc(c));
        out.append(" |");
    }
    out.append("\n|");
    for (size_t i = 0; i < columns.size(); ++i)
        out.append(" --- |");
    out.push_back('\n');
    for (const auto& r : rows) {
        out.push_back('|');
        for (const auto& v : r) {
            out.push_back(' ');
            out.append(esc(v));
            out.append(" |");
        }
        out.push_back('\n');
    }
    if (truncated)
        out += "(more rows not shown)\n";
    if (rows.empty())
        out += "(no rows)\n";
    return out;
}

} // namespace folio
