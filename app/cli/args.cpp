#include "cli/args.h"

#include <cerrno>
#include <cstdlib>

namespace folio::cli {

bool Args::take_switch(const std::string& name) {
    for (size_t i = 0; i < args_.size(); ++i) {
        if (args_[i] == name) {
            args_.erase(args_.begin() + static_cast<long>(i));
            return true;
        }
    }
    return false;
}

std::optional<std::string> Args::take_value(const std::string& name) {
    for (size_t i = 0; i < args_.size(); ++i) {
        const std::string& a = args_[i];
        if (a == name) {
            if (i + 1 >= args_.size()) {
                error_ = "option " + name + " needs a value";
                args_.erase(args_.begin() + static_cast<long>(i));
                return std::nullopt;
            }
            std::string value = args_[i + 1];
            args_.erase(args_.begin() + static_cast<long>(i),
                        args_.begin() + static_cast<long>(i) + 2);
            return value;
        }
        if (a.size() > name.size() + 1 && a.compare(0, name.size(), name) == 0 &&
            a[name.size()] == '=') {
            std::string value = a.substr(name.size() + 1);
            args_.erase(args_.begin() + static_cast<long>(i));
            return value;
        }
    }
    return std::nullopt;
}

std::optional<std::string> Args::take_value(const std::string& name, const std::string& alias) {
    auto v = take_value(name);
    if (!v && !alias.empty())
        v = take_value(alias);
    return v;
}

std::optional<long long> Args::take_int(const std::string& name, const std::string& alias) {
    auto v = take_value(name, alias);
    if (!v)
        return std::nullopt;
    errno = 0;
    char* end = nullptr;
    long long n = std::strtoll(v->c_str(), &end, 10);
    if (v->empty() || *end != '\0' || errno == ERANGE) {
        error_ = "option " + name + " expects an integer, got '" + *v + "'";
        return std::nullopt;
    }
    return n;
}

std::optional<double> Args::take_double(const std::string& name, const std::string& alias) {
    auto v = take_value(name, alias);
    if (!v)
        return std::nullopt;
    errno = 0;
    char* end = nullptr;
    double d = std::strtod(v->c_str(), &end);
    if (v->empty() || *end != '\0' || errno == ERANGE) {
        error_ = "option " + name + " expects a number, got '" + *v + "'";
        return std::nullopt;
    }
    return d;
}

std::vector<std::string> Args::positionals() {
    for (const auto& a : args_) {
        if (a.size() > 1 && a[0] == '-' && a != "-") {
            if (error_.empty())
                error_ = "unknown option " + a;
        }
    }
    return args_;
}

} // namespace folio::cli
