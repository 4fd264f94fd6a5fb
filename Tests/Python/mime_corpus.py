"""What Python's email package (policy.default) reads in each message of the MIME corpus, as JSON.

Usage: python3 mime_corpus.py FILE.eml...  Prints one JSON object: file name -> fields. The Swift test
(Tests/MockServerMailTests/MIMECorpusTests.swift) compares MailMessage's fields to these, field by field.

Attachments are every leaf part in document order (multiparts opened, an attached message/rfc822 kept
as one part) other than the text body (get_body(('plain',))) and the HTML body (get_body(('html',))).
"""
import email
import email.policy
import json
import sys


def addresses(message, name):
    header = message[name]
    if header is None:
        return []
    return [[address.display_name, address.addr_spec] for address in header.addresses]


def leaves(part):
    if part.get_content_maintype() == "multipart" and part.is_multipart():
        for sub in part.iter_parts():
            yield from leaves(sub)
    else:
        yield part


def strip_angles(value):
    if value is None:
        return None
    value = str(value).strip()
    if value.startswith("<") and value.endswith(">"):
        value = value[1:-1]
    return value


def read(path):
    with open(path, "rb") as file:
        message = email.message_from_bytes(file.read(), policy=email.policy.default)
    text_part = message.get_body(("plain",))
    html_part = message.get_body(("html",))
    attachments = []
    for part in leaves(message):
        if part is text_part or part is html_part:
            continue
        payload = part.get_payload(decode=True)
        attachments.append({
            "filename": part.get_filename(),
            "contentType": part.get_content_type(),
            # None for message/rfc822, whose payload Python keeps parsed (the test's exception list).
            "size": len(payload) if payload is not None else None,
            "contentID": strip_angles(part["content-id"]),
        })
    subject = message["subject"]
    date = message["date"]
    return {
        "subject": str(subject) if subject is not None else "",
        "from": addresses(message, "from"),
        "to": addresses(message, "to"),
        "cc": addresses(message, "cc"),
        "bcc": addresses(message, "bcc"),
        "messageID": strip_angles(message["message-id"]),
        "date": date.datetime.timestamp() if date is not None and date.datetime is not None else None,
        "text": text_part.get_content() if text_part is not None else None,
        "html": html_part.get_content() if html_part is not None else None,
        "attachments": attachments,
    }


if __name__ == "__main__":
    result = {}
    for path in sys.argv[1:]:
        result[path.rsplit("/", 1)[-1]] = read(path)
    json.dump(result, sys.stdout, ensure_ascii=False, indent=1, sort_keys=True)
