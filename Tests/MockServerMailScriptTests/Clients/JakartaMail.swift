import Foundation
import Testing
import TestSupport

/// Jakarta Mail (Debian's `libjakarta-mail-java`): a small Java program, compiled once per test
/// run against the installed jar, that sends over SMTP and reads over POP3 or IMAP as a Java
/// application would. Its arguments are `send|read|imap SECURITY HOST PORT USER PASSWORD CA`,
/// then for `send` `FROM TO...`; SECURITY is `plain`, `starttls` (required) or `tls`; USER `-`
/// sends without AUTH; CA `-` trusts the JDK's store, else the PEM file. It prints what it did,
/// or `error` and the exception's class and the server's reply, and exits 1. `imap` lists the
/// folders, reads INBOX, appends a draft (UIDPLUS's APPENDUID), moves a message to Archive, then
/// prints `idling` and IDLEs until the server announces something.
enum JakartaMail {
    /// The jars, where Debian installs them: the API and implementation, and Jakarta Activation.
    static let jars = ["/usr/share/java/jakarta-mail.jar", "/usr/share/java/jakarta-activation.jar"]

    /// Whether java, javac and the jars are installed.
    static var isAvailable: Bool {
        Tools.path(of: "java") != nil && Tools.path(of: "javac") != nil && jars.allSatisfy { FileManager.default.fileExists(atPath: $0) }
    }

    /// The folder of the compiled class, compiled on first use (a lazy static: once per test run).
    static let compiled: Result<URL, JakartaMailError> = {
        do {
            let folder = try Tools.temporaryDirectory()
            let file = folder.appendingPathComponent("MailClient.java")
            try Data(source.utf8).write(to: file)
            let result = try Tools.run("javac", ["-cp", jars.joined(separator: ":"), "-d", folder.path, file.path], timeout: 180)
            guard result.status == 0 else { return .failure(JakartaMailError("javac failed: \(result.stdout)\(result.stderr)")) }
            return .success(folder)
        } catch {
            return .failure(JakartaMailError("could not compile MailClient.java: \(error)"))
        }
    }()

    /// Runs the program with `arguments`.
    static func run(_ arguments: [String]) throws -> Tools.Result {
        try Tools.run("java", try javaArguments(arguments), timeout: 120)
    }

    /// The `java` arguments that run the program with `arguments` (compiling it first, once).
    static func javaArguments(_ arguments: [String]) throws -> [String] {
        let folder = try compiled.get()
        return ["-cp", ([folder.path] + jars).joined(separator: ":"), "MailClient"] + arguments
    }

    /// The program. Jakarta Mail checks the server's name against its certificate only when told
    /// (`checkserveridentity`), so it is told, and trusts only the test CA when one is given.
    static let source = """
        import jakarta.mail.*;
        import jakarta.mail.internet.*;
        import jakarta.mail.search.SubjectTerm;
        import com.sun.mail.imap.AppendUID;
        import com.sun.mail.imap.IMAPFolder;
        import java.io.FileInputStream;
        import java.security.KeyStore;
        import java.security.cert.CertificateFactory;
        import java.util.Properties;
        import javax.net.ssl.SSLContext;
        import javax.net.ssl.TrustManagerFactory;

        public class MailClient {
            public static void main(String[] args) throws Exception {
                String mode = args[0], security = args[1], host = args[2], port = args[3], user = args[4], password = args[5], ca = args[6];
                String protocol = mode.equals("send") ? "smtp" : mode.equals("imap") ? "imap" : "pop3";
                Properties properties = new Properties();
                String prefix = "mail." + protocol + ".";
                properties.put(prefix + "host", host);
                properties.put(prefix + "port", port);
                properties.put(prefix + "connectiontimeout", "10000");
                properties.put(prefix + "timeout", "10000");
                properties.put(prefix + "auth", user.equals("-") ? "false" : "true");
                if (security.equals("starttls")) {
                    properties.put(prefix + "starttls.enable", "true");
                    properties.put(prefix + "starttls.required", "true");
                }
                if (security.equals("tls")) properties.put(prefix + "ssl.enable", "true");
                properties.put(prefix + "ssl.checkserveridentity", "true");
                if (!ca.equals("-")) {
                    KeyStore store = KeyStore.getInstance(KeyStore.getDefaultType());
                    store.load(null, null);
                    try (FileInputStream in = new FileInputStream(ca)) {
                        store.setCertificateEntry("test-ca", CertificateFactory.getInstance("X.509").generateCertificate(in));
                    }
                    TrustManagerFactory trust = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
                    trust.init(store);
                    SSLContext context = SSLContext.getInstance("TLS");
                    context.init(null, trust.getTrustManagers(), null);
                    properties.put(prefix + "ssl.socketFactory", context.getSocketFactory());
                }
                Session session = Session.getInstance(properties);
                try {
                    if (mode.equals("send")) send(session, user, password, args);
                    else if (mode.equals("imap")) imap(session, user, password);
                    else read(session, user, password);
                } catch (MessagingException error) {
                    System.out.println("error " + error.getClass().getSimpleName() + ": " + describe(error));
                    System.exit(1);
                }
            }

            static String describe(MessagingException error) {
                String text = String.valueOf(error.getMessage()).trim();
                Exception next = error.getNextException();
                if (next instanceof MessagingException) text += " / " + describe((MessagingException) next);
                else if (next != null) text += " / " + next;
                return text.replace("\\r", "").replace("\\n", " ");
            }

            static void send(Session session, String user, String password, String[] args) throws MessagingException {
                MimeMessage message = new MimeMessage(session);
                message.setFrom(new InternetAddress(args[7]));
                for (int i = 8; i < args.length; i++) message.addRecipient(Message.RecipientType.TO, new InternetAddress(args[i]));
                message.setSubject("via Jakarta Mail");
                message.setText("Hello from Java,\\n.a dotted line\\nbye\\n", "UTF-8");
                Transport transport = session.getTransport("smtp");
                if (user.equals("-")) transport.connect(); else transport.connect(user, password);
                try {
                    message.saveChanges();
                    transport.sendMessage(message, message.getAllRecipients());
                    System.out.println("sent");
                } finally {
                    transport.close();
                }
            }

            static void read(Session session, String user, String password) throws Exception {
                Store store = session.getStore("pop3");
                store.connect(user, password);
                Folder inbox = store.getFolder("INBOX");
                inbox.open(Folder.READ_ONLY);
                System.out.println("count " + inbox.getMessageCount());
                for (Message message : inbox.getMessages()) {
                    String content = String.valueOf(message.getContent()).replace("\\r\\n", "\\n");
                    System.out.println("message " + message.getSubject() + " from " + message.getFrom()[0] + " size " + message.getSize()
                        + " body " + content.replace("\\n", "|"));
                }
                inbox.close(false);
                store.close();
            }

            static void imap(Session session, String user, String password) throws Exception {
                Store store = session.getStore("imap");
                store.connect(user, password);
                java.util.List<String> names = new java.util.ArrayList<>();
                for (Folder folder : store.getDefaultFolder().list("*")) names.add(folder.getFullName());
                java.util.Collections.sort(names);
                System.out.println("folders " + names + " separator " + store.getDefaultFolder().getSeparator());
                IMAPFolder sent = (IMAPFolder) store.getFolder("Sent");
                System.out.println("sent is special " + java.util.Arrays.asList(sent.getAttributes()).contains("\\\\Sent"));
                IMAPFolder inbox = (IMAPFolder) store.getFolder("INBOX");
                inbox.open(Folder.READ_WRITE);
                System.out.println("inbox " + inbox.getMessageCount() + " unread " + inbox.getUnreadMessageCount());
                Message first = inbox.getMessage(1);
                System.out.println("first " + first.getSubject() + " from " + first.getFrom()[0] + " seen " + first.isSet(Flags.Flag.SEEN));
                IMAPFolder drafts = (IMAPFolder) store.getFolder("Drafts");
                MimeMessage draft = new MimeMessage(session);
                draft.setFrom(new InternetAddress(user));
                draft.setSubject("Saved by Jakarta Mail");
                draft.setText("A draft.", "UTF-8");
                draft.setFlag(Flags.Flag.DRAFT, true);
                draft.saveChanges();
                AppendUID[] appended = drafts.appendUIDMessages(new Message[] { draft });
                System.out.println("appenduid " + (appended[0] != null && appended[0].uidvalidity == drafts.getUIDValidity()));
                drafts.open(Folder.READ_ONLY);
                Message saved = drafts.getMessageByUID(appended[0].uid);
                System.out.println("appended " + saved.getSubject() + " draft " + saved.isSet(Flags.Flag.DRAFT) + " drafts " + drafts.getMessageCount());
                drafts.close(false);
                Folder archive = store.getFolder("Archive");
                Message[] found = inbox.search(new SubjectTerm("Urgent"));
                inbox.moveMessages(found, archive);
                System.out.println("moved " + found.length + " left " + inbox.search(new SubjectTerm("Urgent")).length + " archive " + archive.getMessageCount());
                System.out.println("idling");
                System.out.flush();
                inbox.idle(true);
                System.out.println("after idle " + inbox.search(new SubjectTerm("Arrived while Java idled")).length);
                inbox.close(false);
                store.close();
            }
        }
        """
}
